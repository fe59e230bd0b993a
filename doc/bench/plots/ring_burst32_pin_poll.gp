# SPDX-License-Identifier: BSD-2-Clause
# ring_burst32_pin_poll.gp - drawn by bench/report.py from build/bench-results; run: gnuplot ring_burst32_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_burst32_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 18.0706 15.1849 20.9563 10.5952 10.3557 10.8347 17.2423 16.648 17.8366 24.9475 12.6456 37.2494 10.675 10.4923 10.8577 9.33007 8.9603 9.69984 10.6838 7.41216 13.9555 29.732 29.732 29.732
1 45.9403 45.9403 45.9403 NaN NaN NaN 26.2237 26.2237 26.2237 NaN NaN NaN 47.8976 31.3195 64.4757 49.9353 42.5359 57.3348 43.3609 17.8594 68.8624 NaN NaN NaN
2 38.3111 31.6732 55.1698 31.3689 28.5618 115.581 NaN NaN NaN NaN NaN NaN 23.6432 19.5921 27.6943 31.4709 31.4709 31.4709 26.7192 20.8506 37.2423 NaN NaN NaN
3 30.6304 26.1326 35.1282 NaN NaN NaN NaN NaN NaN NaN NaN NaN 38.5071 19.514 57.5003 62.6195 48.5842 65.787 29.0149 24.2998 33.73 NaN NaN NaN
4 36.0717 22.1247 50.0187 NaN NaN NaN NaN NaN NaN NaN NaN NaN 9.95982 0.671596 19.248 25.893 12.762 39.024 27.2553 18.3418 34.7827 NaN NaN NaN
5 30.6809 30.6809 30.6809 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.43313 1.43313 1.43313 19.2588 18.7405 26.8842 14.5783 11.5554 17.6012 NaN NaN NaN
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
