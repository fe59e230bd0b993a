# SPDX-License-Identifier: BSD-2-Clause
# ring_bulk32_pin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_bulk32_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_bulk32_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 159.96 153.84 168.476 165.123 157.055 188.517 167.059 159.978 185.547 178.612 149.734 190.793 2.04619 1.98413 2.26653 5.959 5.00937 6.04822 37.4069 18.3723 45.9351 143.995 122.073 166.673 135.812 121.169 630.053 106.657 93.8477 115.703 3.25288 2.62862 15.9523 110.393 102.704 135.369 1.73141 0.910511 2.24513 173.815 169.197 217.079
1 166.795 148.721 173.449 NaN NaN NaN 171.255 164.546 196.486 NaN NaN NaN 2.49718 1.8137 2.5993 6.3126 5.59832 7.24396 48.2938 41.1011 55.8974 149.341 130.353 632.076 135.442 119.099 152.965 100.044 82.9435 112.366 2.65204 2.40468 19.1512 105.706 92.6304 140.408 1.13291 0.867088 3.09789 NaN NaN NaN
2 161.669 155.258 193.579 179.921 134.605 399.555 NaN NaN NaN NaN NaN NaN 2.57568 2.15183 2.66618 6.01154 5.4177 6.44629 44.5915 31.2854 49.7668 155.293 134.677 169.445 131.865 126.264 160.178 120.406 108.959 570.819 4.11515 3.94301 4.47075 115.001 92.9257 135.261 2.085 1.08497 2.97938 NaN NaN NaN
3 124.936 108.564 145.96 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.8576 1.72864 2.00927 7.37661 5.90511 7.49634 48.6646 40.6427 55.477 40.2193 4.24705 94.5395 132.245 124.766 159.499 96.1528 90.7683 102.904 5.11385 4.89864 16.7506 116.809 90.018 125.121 1.79887 0.69371 3.24665 NaN NaN NaN
4 153.866 140.633 164.366 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.22941 2.01769 2.26898 0.124275 0.0670467 2.75307 42.4285 35.5064 46.5749 6.94778 1.82699 19.3408 112.922 90.9088 123.47 77.3064 70.0777 90.0497 1.86136 1.78007 2.54721 115.771 100.301 128.88 1.09487 0.8996 2.60161 NaN NaN NaN
5 158.885 148.371 188.847 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.61734 2.23558 3.02527 0.162814 0.133849 2.05551 50.7028 47.016 59.2445 2.25071 0.781698 8.26795 64.5685 50.1611 112.144 54.7845 44.451 67.5082 1.20902 1.13003 1.37327 114.284 108.389 143.353 1.34753 0.713994 4.24236 NaN NaN NaN
EOD
set title "grain_ring against the other queues: batches of 32 (all-or-nothing enqueue, as-many-as-ready dequeue; ck_ring and wfcqueue loop single calls) (pin/poll)"
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
plot $d using ($1 + -0.325):2:3:4 with yerrorbars lw 2 pt 5 ps 1.1 lc rgb '#1a5fb4' title "grain MPMC", \
     $d using ($1 + -0.275):5:6:7 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#e66100' title "grain MPSC", \
     $d using ($1 + -0.225):8:9:10 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#26a269' title "grain SPMC", \
     $d using ($1 + -0.175):11:12:13 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#a51d2d' title "grain SPSC", \
     $d using ($1 + -0.125):14:15:16 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#613583' title "boost_queue", \
     $d using ($1 + -0.075):17:18:19 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#986a44' title "ck_ring", \
     $d using ($1 + -0.025):20:21:22 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#5e5c64' title "mutex", \
     $d using ($1 + 0.025):23:24:25 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#c061cb' title "rte_ring", \
     $d using ($1 + 0.075):26:27:28 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#2ec27e' title "rte_ring_hts", \
     $d using ($1 + 0.125):29:30:31 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#f5c211' title "rte_ring_rts", \
     $d using ($1 + 0.175):32:33:34 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#1a5fb4' title "tbb_queue", \
     $d using ($1 + 0.225):35:36:37 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#e66100' title "twolock", \
     $d using ($1 + 0.275):38:39:40 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#26a269' title "wfcqueue", \
     $d using ($1 + 0.325):41:42:43 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#a51d2d' title "boost_spsc"
