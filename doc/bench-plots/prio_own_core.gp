# SPDX-License-Identifier: BSD-2-Clause
# prio_own_core.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_own_core.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_own_core.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 5.33629 4.4603 11.5913 13.5242 8.85698 15.1066 4.00429 3.80595 5.04343 8.59801 7.36495 9.78984 5.81264 4.2253 6.61842 5.3471 3.15728 6.11274 2.73686 1.77546 3.61642 2.29327 1.392 3.16789
2 5.72412 5.1682 6.03403 10.3635 8.50411 11.9792 4.5016 4.15211 6.41262 7.17378 5.97422 9.38313 4.27579 3.57488 6.15809 5.44664 4.05157 7.15576 2.90985 2.22796 4.01724 3.2471 2.12922 4.92734
4 5.73132 4.89677 7.26959 9.34806 6.86212 10.6016 4.62669 4.39499 7.49508 6.48484 6.22899 7.46771 5.9673 4.26388 6.17139 4.76744 3.20561 6.98111 1.92014 1.55922 4.05593 1.48633 0.598493 2.37479
8 5.38848 4.33565 5.84266 6.52237 5.14487 7.96276 5.26019 4.19727 6.66425 6.31994 4.91419 7.74297 4.29138 3.78812 6.67144 5.51612 4.46643 6.80478 2.27689 1.55948 3.85082 1.73773 1.44328 1.95615
12 5.15257 4.54236 6.10417 5.84227 4.58263 7.83444 4.76366 4.44796 5.7812 6.20742 5.41116 7.79926 5.38757 3.79762 6.56423 4.1055 3.21859 6.00687 2.06509 1.48476 3.19821 1.83802 1.46746 2.38241
EOD
set title "grain_prio against a locked pfifo_fast, three bands: own_core (consumer alone on CPU 0, producers on CPU 1)"
set ylabel 'million items dequeued/s, median, bars min–max'
set xlabel "producers (threads = producers + 1 consumer), log scale"
set logscale x 2
set xtics ("1" 1, "2" 2, "4" 4, "8" 8, "12" 12)
set xrange [0.7692307692307692:15.600000000000001]
set yrange [0:*]
set object 1 rect from 1.4142135623730951, graph 0 to 15.600000000000001, graph 1 behind fc rgb '#f1e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed' at 15.600000000000001, graph 0.98 right offset -0.5,0 tc rgb '#a05050'
plot $d using 1:2:3:4 with yerrorlines lw 2.5 dt 1 pt 5 lc rgb '#1a5fb4' title "grain_prio, single", \
     $d using 1:5:6:7 with yerrorlines lw 2.5 dt 2 pt 5 lc rgb '#1a5fb4' title "grain_prio, burst32", \
     $d using 1:8:9:10 with yerrorlines lw 1.5 dt 1 pt 7 lc rgb '#e66100' title "grain_prio, 8 bands (bits), single", \
     $d using 1:11:12:13 with yerrorlines lw 1.5 dt 2 pt 7 lc rgb '#e66100' title "grain_prio, 8 bands (bits), burst32", \
     $d using 1:14:15:16 with yerrorlines lw 1.5 dt 1 pt 9 lc rgb '#26a269' title "spinlock baseline, single", \
     $d using 1:17:18:19 with yerrorlines lw 1.5 dt 2 pt 9 lc rgb '#26a269' title "spinlock baseline, burst32", \
     $d using 1:20:21:22 with yerrorlines lw 1.5 dt 1 pt 11 lc rgb '#a51d2d' title "mutex baseline, single", \
     $d using 1:23:24:25 with yerrorlines lw 1.5 dt 2 pt 11 lc rgb '#a51d2d' title "mutex baseline, burst32"
