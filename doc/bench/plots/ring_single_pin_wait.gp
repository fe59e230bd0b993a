# SPDX-License-Identifier: BSD-2-Clause
# ring_single_pin_wait.gp - drawn by bench/report.py from build/bench-results; run: gnuplot ring_single_pin_wait.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_pin_wait.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 0.584999 0.582574 0.587425 0.682665 0.682665 0.682665 0.909073 0.679807 1.81152 0.688691 0.598837 0.778545 2.40139 1.44644 3.35635
1 1.00936 0.639638 1.37909 NaN NaN NaN 1.11471 1.04159 1.28291 NaN NaN NaN 1.50714 1.38093 1.63334
2 1.63183 1.63183 1.63183 1.53616 1.52003 1.55229 NaN NaN NaN NaN NaN NaN 1.57643 1.57502 1.57784
3 1.35091 1.35091 1.35091 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.68236 2.50715 2.85757
4 1.09939 0.999546 1.19924 NaN NaN NaN NaN NaN NaN NaN NaN NaN 3.54285 3.54285 3.54285
5 1.21553 1.1906 1.24045 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.95835 2.82125 3.09546
EOD
set title "grain_ring against the other queues: one token per call (pin/wait)"
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
