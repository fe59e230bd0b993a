# SPDX-License-Identifier: BSD-2-Clause
# ring_burst32_nopin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_burst32_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_burst32_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 331.784 238.953 678.253 136.343 123.608 199.667 321.133 227.808 346.292 139.839 136.153 176.101 61.7052 59.1475 69.6126 66.7089 58.3641 67.733 62.2588 58.5977 65.7149 127.028 117.615 139.618
1 270.071 229.339 631.22 NaN NaN NaN 331.232 209.95 359.839 NaN NaN NaN 56.0257 42.3694 59.8998 61.8553 57.7446 68.4349 54.6205 52.9023 57.285 NaN NaN NaN
2 280.185 225.199 310.456 170.646 124.434 192.454 NaN NaN NaN NaN NaN NaN 59.9956 52.3885 276.636 64.873 59.2225 344.4 58.1723 48.2658 235.113 NaN NaN NaN
3 267.835 170.724 391.29 NaN NaN NaN NaN NaN NaN NaN NaN NaN 23.731 3.67635 58.4257 58.0513 46.6757 74.8376 51.3118 48.7365 59.1231 NaN NaN NaN
4 236.956 180.603 264.1 NaN NaN NaN NaN NaN NaN NaN NaN NaN 0.94591 0.354741 2.67154 49.3276 36.5913 60.7656 50.5236 27.8895 60.1069 NaN NaN NaN
5 344.841 282.289 660.45 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.80329 0.678842 2.26929 39.5504 30.6063 95.5197 22.3569 21.8946 55.7094 NaN NaN NaN
EOD
set title "grain_ring against the other queues: bursts of 32 (partial enqueue and dequeue) (nopin/poll)"
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
