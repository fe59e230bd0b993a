# SPDX-License-Identifier: BSD-2-Clause
# prio_own_core.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_own_core.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_own_core.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 13.1382 10.6177 26.5194 8.3513 8.25345 27.3723 6.68916 5.80252 15.2573 15.1655 3.8726 15.5458 10.9009 2.35621 12.0087 2.63132 2.46651 11.8405 3.62219 2.19064 6.01232 3.46917 1.62941 3.80778
2 22.8719 9.93333 23.6652 23.3361 7.60066 25.4278 6.73166 6.0366 15.7379 4.22566 4.01556 15.7159 2.60428 2.39638 11.0447 2.53878 2.463 12.3628 1.64576 1.45226 5.10385 5.1377 3.90482 5.64731
4 19.0297 8.17521 20.8639 7.17399 6.54055 23.365 5.80223 5.31224 14.7444 4.28973 3.99826 14.7581 11.2774 2.46568 11.5471 2.61829 2.46181 11.7954 1.62629 1.06114 5.02987 3.90342 2.81157 4.34899
8 7.18075 6.03514 18.6638 16.9486 5.80659 19.0375 5.1412 4.72972 13.6852 12.2078 3.89043 14.1537 2.59789 2.47901 10.885 11.1404 2.48154 12.6383 3.7766 0.827215 5.27147 3.84786 2.45352 4.88591
12 6.52414 5.03613 17.5563 5.51082 4.87301 17.7869 5.20778 4.11516 11.8644 4.504 4.17301 13.6323 2.70528 2.28082 11.576 11.5056 2.4648 12.0072 3.4726 0.629076 5.7471 3.81155 2.32744 4.37422
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
