# SPDX-License-Identifier: BSD-2-Clause
# ring_bulk32_pin_wait.gp - drawn by bench/report.py from build/bench-results; run: gnuplot ring_bulk32_pin_wait.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_bulk32_pin_wait.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 16.6782 16.5643 16.7921 45.7581 9.87752 81.6387 20.1158 13.2114 27.0201 37.76 37.76 37.76 10.1563 5.29011 15.0225
1 12.6434 10.7284 21.6753 NaN NaN NaN 13.4248 13.0461 18.1515 NaN NaN NaN NaN NaN NaN
2 17.8986 17.8986 17.8986 26.0542 26.0542 26.0542 NaN NaN NaN NaN NaN NaN 12.4936 8.99451 15.9926
3 23.6827 23.6827 23.6827 NaN NaN NaN NaN NaN NaN NaN NaN NaN 14.8235 11.7386 17.9084
4 18.8592 17.5608 20.1576 NaN NaN NaN NaN NaN NaN NaN NaN NaN 19.5235 15.8659 23.1811
5 13.0672 9.66943 16.465 NaN NaN NaN NaN NaN NaN NaN NaN NaN 46.4399 17.9467 74.9331
EOD
set title "grain_ring against the other queues: batches of 32 (all-or-nothing enqueue, as-many-as-ready dequeue; ck_ring and wfcqueue loop single calls) (pin/wait)"
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
plot $d using ($1 + -0.280):2:3:4 with yerrorbars lw 2 pt 5 ps 1.1 lc rgb '#1a5fb4' title "grain MPMC", \
     $d using ($1 + -0.140):5:6:7 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#e66100' title "grain MPSC", \
     $d using ($1 + 0.000):8:9:10 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#26a269' title "grain SPMC", \
     $d using ($1 + 0.140):11:12:13 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#a51d2d' title "grain SPSC", \
     $d using ($1 + 0.280):14:15:16 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#613583' title "moody_blocking"
