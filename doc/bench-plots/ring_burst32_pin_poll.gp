# SPDX-License-Identifier: BSD-2-Clause
# ring_burst32_pin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_burst32_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_burst32_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 288.58 226.486 329.553 190.735 131.781 197.957 349.005 245.28 360.684 178.995 139.284 183.233 63.5185 61.4433 68.523 66.8287 58.1444 69.4824 62.7523 56.6251 243.299 137.374 126.882 147.416
1 285.219 243.099 304.199 NaN NaN NaN 225.365 211.239 268.372 NaN NaN NaN 64.0176 60.9403 68.2575 68.3565 65.0667 72.8463 61.9366 58.6334 64.2267 NaN NaN NaN
2 264.001 250.928 328.008 194.397 134.638 541.379 NaN NaN NaN NaN NaN NaN 63.9536 62.3764 65.8393 66.3012 60.4666 76.9528 60.3254 58.3351 67.3067 NaN NaN NaN
3 150.537 122.673 192.862 NaN NaN NaN NaN NaN NaN NaN NaN NaN 42.1863 24.6503 53.9842 76.3784 57.9249 222.624 60.406 56.5788 152.45 NaN NaN NaN
4 205.828 178.668 243.601 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.64562 0.385352 5.82595 45.3182 34.3065 68.5643 41.358 33.2876 56.4938 NaN NaN NaN
5 270.162 230.46 294.216 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.5231 0.637873 3.41969 46.2839 17.2961 51.8334 42.3117 25.4443 82.3201 NaN NaN NaN
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
