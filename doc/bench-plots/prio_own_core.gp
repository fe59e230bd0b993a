# SPDX-License-Identifier: BSD-2-Clause
# prio_own_core.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_own_core.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_own_core.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 7.47474 5.56804 3.89331 12.1682 5.47119 4.37606
2 20.8097 5.2086 2.73527 11.706 4.88113 6.06241
4 13.6562 13.1485 11.4016 12.0431 4.46357 8.64698
8 7.11477 10.9704 12.1256 11.1602 1.53295 4.09834
12 7.79391 4.60941 11.1297 11.6185 1.88555 4.08029
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
     $d using 1:4 with linespoints lw 1.5 dt 1 pt 7 lc rgb '#e66100' title "spinlock baseline, single", \
     $d using 1:5 with linespoints lw 1.5 dt 2 pt 7 lc rgb '#e66100' title "spinlock baseline, burst32", \
     $d using 1:6 with linespoints lw 1.5 dt 1 pt 9 lc rgb '#26a269' title "mutex baseline, single", \
     $d using 1:7 with linespoints lw 1.5 dt 2 pt 9 lc rgb '#26a269' title "mutex baseline, burst32"
