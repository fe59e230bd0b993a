# SPDX-License-Identifier: BSD-2-Clause
# prio_own_core.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_own_core.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_own_core.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 8.28051 7.00609 12.8235 10.4339 9.93293 11.139 8.92887 6.74207 10.4586 7.41858 7.26348 8.02031 4.19492 3.81551 4.68691 3.99769 3.08841 4.1482 3.31588 1.78257 4.77748 1.38192 1.31243 1.56197
2 9.56567 8.91542 10.9353 9.43258 7.72688 9.92005 9.92491 6.68581 10.5873 7.06003 6.93374 7.82777 4.05225 3.06035 4.33488 4.058 2.96811 4.48392 3.83111 2.74385 5.10635 2.01415 1.60052 3.5493
4 8.99808 8.37847 9.83752 7.91939 7.56288 8.61908 8.72872 6.8389 9.39512 6.89912 5.57413 7.14933 3.90964 3.6995 4.50634 3.93939 3.76456 4.10777 3.56672 1.61778 6.0223 1.40628 1.20835 1.82799
8 7.07317 6.74613 8.36757 6.49989 5.66212 6.89543 6.80586 5.38834 8.46191 6.50503 4.77212 6.77102 3.9604 3.76156 4.08604 4.02009 3.82269 4.39319 3.01454 1.79441 4.44711 1.49459 1.25491 2.1395
12 6.30772 5.51327 7.83992 5.16909 4.97758 6.42804 6.72317 6.08108 7.86622 5.82836 4.01222 6.13086 3.77617 3.49609 4.27518 3.906 3.80762 4.39267 3.05041 1.661 5.0494 1.50566 1.34644 1.6228
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
