# SPDX-License-Identifier: BSD-2-Clause
# ring_single_nopin_wait.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_single_nopin_wait.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_nopin_wait.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 3.44694 3.19086 6.49524 7.40203
1 1.82132 NaN 2.43457 NaN
2 4.57802 3.05541 NaN NaN
3 2.26599 NaN NaN NaN
4 1.89515 NaN NaN NaN
5 1.70286 NaN NaN NaN
EOD
set title "grain_ring against the other queues: one token per call (nopin/wait)"
set ylabel 'million pairs/s (enqueue + dequeue), median, log scale'
set xlabel 'configuration: P producer and C consumer threads' offset 0,-1
set bmargin 5
set logscale y
set format y '%g'
set xtics ("1P1C\n2 threads" 0, "1P2C\n3 threads" 1, "2P1C\n3 threads" 2, "2P2C\n4 threads" 3, "4P4C\n8 threads" 4, "8P8C\n16 threads" 5)
set xrange [-0.4:5.4]
set object 1 rect from 0.5, graph 0 to 5.4, graph 1 behind fc rgb '#f1e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed' at 5.4, graph 0.98 right offset -0.5,0 tc rgb '#a05050'
plot $d using 1:2 with linespoints lw 2.5 dt 1 pt 5 ps 1.1 lc rgb '#1a5fb4' title "grain MPMC", \
     $d using 1:3 with linespoints lw 1.5 dt 2 pt 7 ps 1.1 lc rgb '#e66100' title "grain MPSC", \
     $d using 1:4 with linespoints lw 1.5 dt 2 pt 9 ps 1.1 lc rgb '#26a269' title "grain SPMC", \
     $d using 1:5 with linespoints lw 1.5 dt 2 pt 11 ps 1.1 lc rgb '#a51d2d' title "grain SPSC"
