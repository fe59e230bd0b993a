# SPDX-License-Identifier: BSD-2-Clause
# ring_burst32_pin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_burst32_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_burst32_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 187.92 175.831 194.666 171.727 155.091 336.112 174.791 165.276 204.652 168.324 153.304 178.127 129.273 120.517 143.813 151.748 142.048 153.385 107.824 82.6021 114.56 186.691 170.096 199.191
1 162.438 143.063 173.954 NaN NaN NaN 165.5 148.89 199.347 NaN NaN NaN 152.764 135.599 156.503 140.914 126.051 586.844 103.922 94.635 115.102 NaN NaN NaN
2 167.035 166.146 193.733 153.725 143.617 164.281 NaN NaN NaN NaN NaN NaN 146.108 135.27 610.73 146.021 123.71 157.12 98.4628 97.3036 114.686 NaN NaN NaN
3 131.801 123.527 134.413 NaN NaN NaN NaN NaN NaN NaN NaN NaN 37.6711 5.36675 129.461 135.928 116.145 370.639 89.2633 83.9189 91.7391 NaN NaN NaN
4 153.169 145.75 163.601 NaN NaN NaN NaN NaN NaN NaN NaN NaN 5.2913 1.19106 9.90862 109.38 91.2268 136.546 96.6113 65.9926 97.8757 NaN NaN NaN
5 165.329 154.404 195.173 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.54017 0.182456 7.55842 60.8135 44.3466 100.11 51.4576 44.1878 70.5571 NaN NaN NaN
EOD
set title "grain_ring against the other queues: bursts of 32 (partial enqueue and dequeue) (pin/poll)"
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
plot $d using ($1 + -0.306):2:3:4 with yerrorbars lw 2 pt 5 ps 1.1 lc rgb '#1a5fb4' title "grain MPMC", \
     $d using ($1 + -0.219):5:6:7 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#e66100' title "grain MPSC", \
     $d using ($1 + -0.131):8:9:10 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#26a269' title "grain SPMC", \
     $d using ($1 + -0.044):11:12:13 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#a51d2d' title "grain SPSC", \
     $d using ($1 + 0.044):14:15:16 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#613583' title "rte_ring", \
     $d using ($1 + 0.131):17:18:19 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#986a44' title "rte_ring_hts", \
     $d using ($1 + 0.219):20:21:22 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#5e5c64' title "rte_ring_rts", \
     $d using ($1 + 0.306):23:24:25 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#c061cb' title "boost_spsc"
