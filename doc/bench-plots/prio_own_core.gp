# SPDX-License-Identifier: BSD-2-Clause
# prio_own_core.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_own_core.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_own_core.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 15.2604 16.4881 10.2251 8.88766 13.2423 9.95092 5.83025 5.0165
2 13.1856 12.6602 9.77286 8.26158 12.4152 9.03271 3.08038 7.88306
4 9.98025 9.22175 8.85885 7.07945 11.7128 9.11035 2.56995 4.13436
8 6.8952 6.92121 7.04124 6.34678 11.3658 8.76926 2.53089 5.4042
12 5.71453 6.17251 6.24224 6.09002 11.1821 8.63543 2.27586 5.30473
EOD
set title "grain_prio against a locked pfifo_fast, three bands: own_core (consumer alone on CPU 0, producers on CPU 1)"
set ylabel 'million items dequeued/s, median'
set xlabel 'producers (threads = producers + 1 consumer), log scale'
set logscale x 2
set xtics ("1" 1, "2" 2, "4" 4, "8" 8, "12" 12)
set xrange [0.8:15.0]
set yrange [0:*]
set object 1 rect from 1.4142135623730951, graph 0 to 15.0, graph 1 behind fc rgb '#f1e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed' at 15.0, graph 0.98 right offset -0.5,0 tc rgb '#a05050'
plot $d using 1:2 with linespoints lw 2.5 dt 1 pt 5 lc rgb '#1a5fb4' title "grain_prio, single", \
     $d using 1:3 with linespoints lw 2.5 dt 2 pt 5 lc rgb '#1a5fb4' title "grain_prio, burst32", \
     $d using 1:4 with linespoints lw 1.5 dt 1 pt 7 lc rgb '#e66100' title "grain_prio, 8 bands (bits), single", \
     $d using 1:5 with linespoints lw 1.5 dt 2 pt 7 lc rgb '#e66100' title "grain_prio, 8 bands (bits), burst32", \
     $d using 1:6 with linespoints lw 1.5 dt 1 pt 9 lc rgb '#26a269' title "spinlock baseline, single", \
     $d using 1:7 with linespoints lw 1.5 dt 2 pt 9 lc rgb '#26a269' title "spinlock baseline, burst32", \
     $d using 1:8 with linespoints lw 1.5 dt 1 pt 11 lc rgb '#a51d2d' title "mutex baseline, single", \
     $d using 1:9 with linespoints lw 1.5 dt 2 pt 11 lc rgb '#a51d2d' title "mutex baseline, burst32"
