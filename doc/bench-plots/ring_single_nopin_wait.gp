# SPDX-License-Identifier: BSD-2-Clause
# ring_single_nopin_wait.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_single_nopin_wait.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_nopin_wait.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 4.67245 3.35277 5.46872 3.15162 3.00097 3.94385 6.08609 5.35221 7.47875 3.90157 2.91576 6.88001
1 1.90425 1.70967 2.25639 NaN NaN NaN 1.96292 1.17083 4.59311 NaN NaN NaN
2 4.25626 3.84208 5.32785 3.69542 2.76785 4.79818 NaN NaN NaN NaN NaN NaN
3 2.37823 2.0001 3.30434 NaN NaN NaN NaN NaN NaN NaN NaN NaN
4 1.69206 1.65167 1.88479 NaN NaN NaN NaN NaN NaN NaN NaN NaN
5 1.88077 1.74649 2.18928 NaN NaN NaN NaN NaN NaN NaN NaN NaN
EOD
set title "grain_ring against the other queues: one token per call (nopin/wait)"
set ylabel 'million pairs/s, median, bars min–max, log scale'
set xlabel 'configuration: P producer and C consumer threads' offset 0,-1
set bmargin 5
set logscale y
set format y '%g'
set xtics ("1P1C\n2 threads" 0, "1P2C\n3 threads" 1, "2P1C\n3 threads" 2, "2P2C\n4 threads" 3, "4P4C\n8 threads" 4, "8P8C\n16 threads" 5)
set xrange [-0.5:5.5]
set grid xtics lc rgb '#eeeeee'
set xtics add ('' 5.5)
set object 1 rect from 0.5, graph 0 to 5.5, graph 1 behind fc rgb '#f1e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed' at 5.5, graph 0.98 right offset -0.5,0 tc rgb '#a05050'
plot $d using ($1 + -0.262):2:3:4 with yerrorbars lw 2 pt 5 ps 1.1 lc rgb '#1a5fb4' title "grain MPMC", \
     $d using ($1 + -0.087):5:6:7 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#e66100' title "grain MPSC", \
     $d using ($1 + 0.087):8:9:10 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#26a269' title "grain SPMC", \
     $d using ($1 + 0.262):11:12:13 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#a51d2d' title "grain SPSC"
