# SPDX-License-Identifier: BSD-2-Clause
# prio_own_core.gp - drawn by bench/report.py from build/bench-results/quick; run: gnuplot prio_own_core.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_own_core.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 3.9306 3.43559 4.42561 5.00067 3.81824 6.1831 7.35957 6.15511 8.56403 2.44077 1.18547 3.69607 1.20776 0.930603 1.48491 1.17517 1.06816 1.28217 1.48096 1.33008 1.63183 1.30354 0.862825 1.74426
2 6.48251 3.41295 9.55206 2.88699 1.92629 3.84768 1.82731 1.56737 2.08725 1.5762 1.51801 1.63438 1.16155 1.1493 1.1738 2.22548 2.20094 2.25003 1.73981 1.73981 1.73981 2.59684 1.53981 3.65387
8 2.7657 2.37466 3.15675 3.63552 3.00535 4.26568 2.90409 0.699006 5.10917 3.83405 3.80363 3.86447 0.876894 0.76952 0.984267 1.05392 0.694839 1.41301 0.985376 0.444552 1.5262 4.22869 4.22869 4.22869
EOD
set title "grain_prio against a locked pfifo_fast, three bands: own_core (consumer alone on CPU 0, producers on CPU 1)"
set ylabel 'million items dequeued/s, median, bars min–max'
set xlabel "producers (threads = producers + 1 consumer), log scale"
set logscale x 2
set xtics ("1" 1, "2" 2, "8" 8)
set xrange [0.7692307692307692:10.4]
set yrange [0:*]
set object 1 rect from 1.4142135623730951, graph 0 to 10.4, graph 1 behind fc rgb '#f1e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed' at 10.4, graph 0.98 right offset -0.5,0 tc rgb '#a05050'
plot $d using 1:2:3:4 with yerrorlines lw 2.5 dt 1 pt 5 lc rgb '#1a5fb4' title "grain_prio, single", \
     $d using 1:5:6:7 with yerrorlines lw 2.5 dt 2 pt 5 lc rgb '#1a5fb4' title "grain_prio, burst32", \
     $d using 1:8:9:10 with yerrorlines lw 1.5 dt 1 pt 7 lc rgb '#e66100' title "grain_prio, 8 bands (bits), single", \
     $d using 1:11:12:13 with yerrorlines lw 1.5 dt 2 pt 7 lc rgb '#e66100' title "grain_prio, 8 bands (bits), burst32", \
     $d using 1:14:15:16 with yerrorlines lw 1.5 dt 1 pt 9 lc rgb '#26a269' title "spinlock baseline, single", \
     $d using 1:17:18:19 with yerrorlines lw 1.5 dt 2 pt 9 lc rgb '#26a269' title "spinlock baseline, burst32", \
     $d using 1:20:21:22 with yerrorlines lw 1.5 dt 1 pt 11 lc rgb '#a51d2d' title "mutex baseline, single", \
     $d using 1:23:24:25 with yerrorlines lw 1.5 dt 2 pt 11 lc rgb '#a51d2d' title "mutex baseline, burst32"
