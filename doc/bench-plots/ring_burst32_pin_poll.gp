# SPDX-License-Identifier: BSD-2-Clause
# ring_burst32_pin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_burst32_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_burst32_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 269.419 106.852 295.637 202.842 110.602 409.886 221.106 137.414 256.823 292.317 109.911 353.806 300.505 243.987 464.352 327.536 96.0317 479.028 237.089 61.0436 307.524 351.126 107.121 461.592
1 228.49 97.1502 270.86 NaN NaN NaN 254.973 201.311 321.677 NaN NaN NaN 342.815 304.836 623.974 258.545 93.5399 387.229 340.454 266.317 392.409 NaN NaN NaN
2 229.662 126.348 282.23 308.114 110.765 375.357 NaN NaN NaN NaN NaN NaN 402.581 318.947 620.238 351.192 97.5044 460.481 232.989 84.6828 383.311 NaN NaN NaN
3 117.634 67.846 211.451 NaN NaN NaN NaN NaN NaN NaN NaN NaN 187.139 118.315 248.182 273.563 90.6457 323.267 239.519 82.6123 248.449 NaN NaN NaN
4 190.651 97.7849 230.489 NaN NaN NaN NaN NaN NaN NaN NaN NaN 6.35783 1.67853 27.1809 78.7244 68.2628 237.591 238.32 79.3957 281.784 NaN NaN NaN
5 197.411 109.178 295.714 NaN NaN NaN NaN NaN NaN NaN NaN NaN 15.4426 1.03049 52.7544 154.248 38.3076 254.591 108.65 41.0576 155.899 NaN NaN NaN
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
