# SPDX-License-Identifier: BSD-2-Clause
# prio_unpinned.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_unpinned.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_unpinned.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 14.628 6.53503 2.64295 11.4166 3.19 4.08188
2 6.10795 7.34488 9.82426 2.26219 2.94045 4.189
4 2.59769 4.27047 4.40783 2.26449 1.07337 1.85998
8 1.91652 1.32509 1.92527 1.09076 0.861174 1.15712
12 2.35774 0.88602 1.61433 0.586199 0.609167 0.977955
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
     $d using 1:4 with linespoints lw 1.5 dt 1 pt 7 lc rgb '#e66100' title "spinlock baseline, single", \
     $d using 1:5 with linespoints lw 1.5 dt 2 pt 7 lc rgb '#e66100' title "spinlock baseline, burst32", \
     $d using 1:6 with linespoints lw 1.5 dt 1 pt 9 lc rgb '#26a269' title "mutex baseline, single", \
     $d using 1:7 with linespoints lw 1.5 dt 2 pt 9 lc rgb '#26a269' title "mutex baseline, burst32"
