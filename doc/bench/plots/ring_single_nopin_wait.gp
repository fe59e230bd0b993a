# SPDX-License-Identifier: BSD-2-Clause
# ring_single_nopin_wait.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_single_nopin_wait.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_nopin_wait.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 3.33573 3.17319 7.22753 2.5615 2.29463 2.67488 4.26877 4.13627 4.79472 3.61462 2.67586 3.98747
1 0.632821 0.405093 0.880495 NaN NaN NaN 0.608816 0.589123 1.56982 NaN NaN NaN
2 3.77572 2.85499 4.19839 2.63627 2.34821 2.89911 NaN NaN NaN NaN NaN NaN
3 0.844031 0.779699 1.30389 NaN NaN NaN NaN NaN NaN NaN NaN NaN
4 0.597243 0.567603 0.992593 NaN NaN NaN NaN NaN NaN NaN NaN NaN
5 0.542176 0.456621 0.574678 NaN NaN NaN NaN NaN NaN NaN NaN NaN
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
