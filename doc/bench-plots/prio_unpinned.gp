# SPDX-License-Identifier: BSD-2-Clause
# prio_unpinned.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_unpinned.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_unpinned.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 16.0549 16.099 10.1962 8.85108 12.2581 9.32688 5.73564 5.40718
2 8.48565 9.33538 6.1669 4.66018 10.3771 11.1676 4.38538 4.85582
4 5.35165 6.10976 4.18523 3.31254 10.5315 11.8306 0.854125 2.00033
8 3.36248 3.19978 2.21845 2.03255 6.38218 8.64497 0.589421 1.00219
12 2.13879 2.00678 1.43416 1.37367 4.64172 6.99038 0.416874 0.816611
EOD
set title "grain_prio against a locked pfifo_fast, three bands: unpinned (no pinning: the scheduler places every thread)"
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
