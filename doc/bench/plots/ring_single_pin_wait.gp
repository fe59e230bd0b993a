# SPDX-License-Identifier: BSD-2-Clause
# ring_single_pin_wait.gp - drawn by bench/report.py from build/bench-results/quick; run: gnuplot ring_single_pin_wait.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_pin_wait.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 2.12037 1.90146 2.33927 1.32794 1.01403 1.64184 1.54084 1.18897 1.89271 1.03704 0.805618 1.26845 1.84674 1.30292 2.39056
1 1.19755 1.09524 1.29986 NaN NaN NaN 1.42243 1.42243 1.42243 NaN NaN NaN NaN NaN NaN
2 1.52813 1.11765 1.93861 2.00549 1.64998 2.36101 NaN NaN NaN NaN NaN NaN NaN NaN NaN
3 1.14839 0.931075 1.3657 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.87673 1.87673 1.87673
4 0.958947 0.947796 0.970099 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.76472 2.76472 2.76472
EOD
set title "grain_ring against the other queues: one token per call (pin/wait)"
set ylabel 'million pairs/s, median, bars min–max, log scale'
set xlabel 'configuration: P producer and C consumer threads' offset 0,-1
set bmargin 5
set logscale y
set format y '%g'
set xtics ("1P1C\n2 threads" 0, "1P2C\n3 threads" 1, "2P1C\n3 threads" 2, "2P2C\n4 threads" 3, "4P4C\n8 threads" 4)
set xrange [-0.5:4.5]
set grid xtics lc rgb '#eeeeee'
set xtics add ('' 4.5)
set object 1 rect from 0.5, graph 0 to 4.5, graph 1 behind fc rgb '#f1e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed' at 4.5, graph 0.98 right offset -0.5,0 tc rgb '#a05050'
plot $d using ($1 + -0.280):2:3:4 with yerrorbars lw 2 pt 5 ps 1.1 lc rgb '#1a5fb4' title "grain MPMC", \
     $d using ($1 + -0.140):5:6:7 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#e66100' title "grain MPSC", \
     $d using ($1 + 0.000):8:9:10 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#26a269' title "grain SPMC", \
     $d using ($1 + 0.140):11:12:13 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#a51d2d' title "grain SPSC", \
     $d using ($1 + 0.280):14:15:16 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#613583' title "moody_blocking"
