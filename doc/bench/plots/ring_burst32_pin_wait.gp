# SPDX-License-Identifier: BSD-2-Clause
# ring_burst32_pin_wait.gp - drawn by bench/report.py from build/bench-results; run: gnuplot ring_burst32_pin_wait.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_burst32_pin_wait.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 30.2324 30.2324 30.2324 NaN NaN NaN 20.0381 13.0797 26.9965 9.687 8.77809 10.5959
1 13.9166 13.9166 13.9166 NaN NaN NaN 12.3683 12.3683 12.3683 NaN NaN NaN
2 18.5039 16.0771 20.9306 21.1846 19.7597 22.6095 NaN NaN NaN NaN NaN NaN
3 24.8845 23.7214 26.0476 NaN NaN NaN NaN NaN NaN NaN NaN NaN
4 15.8683 15.8435 18.1611 NaN NaN NaN NaN NaN NaN NaN NaN NaN
5 16.0941 13.3132 16.9309 NaN NaN NaN NaN NaN NaN NaN NaN NaN
EOD
set title "grain_ring against the other queues: bursts of 32 (partial enqueue and dequeue) (pin/wait)"
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
