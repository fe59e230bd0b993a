# SPDX-License-Identifier: BSD-2-Clause
# ring_single_nopin_wait.gp - drawn by bench/report.py from build/bench-results; run: gnuplot ring_single_nopin_wait.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_nopin_wait.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 1.30924 1.30924 1.30924 NaN NaN NaN 1.21558 1.21558 1.21558 1.37364 0.120926 1.6849 0.530407 0.373648 0.687166
1 1.01 0.889317 1.13069 NaN NaN NaN 0.538473 0.538473 0.538473 NaN NaN NaN 1.33765 1.33765 1.33765
2 1.65162 1.65162 1.65162 1.73821 0.302047 1.77423 NaN NaN NaN NaN NaN NaN 1.79388 1.16445 2.4233
3 0.543713 0.279958 0.807468 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.90395 1.26736 3.02462
4 1.3217 0.107853 1.48569 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.69219 1.57937 1.80502
5 1.10959 0.251137 1.1783 NaN NaN NaN NaN NaN NaN NaN NaN NaN 0.271763 0.271763 0.271763
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
plot $d using ($1 + -0.280):2:3:4 with yerrorbars lw 2 pt 5 ps 1.1 lc rgb '#1a5fb4' title "grain MPMC", \
     $d using ($1 + -0.140):5:6:7 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#e66100' title "grain MPSC", \
     $d using ($1 + 0.000):8:9:10 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#26a269' title "grain SPMC", \
     $d using ($1 + 0.140):11:12:13 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#a51d2d' title "grain SPSC", \
     $d using ($1 + 0.280):14:15:16 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#613583' title "moody_blocking"
