# SPDX-License-Identifier: BSD-2-Clause
# ring_single_nopin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_single_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 34.6418 28.1958 40.711 15.4018 13.2406 15.9218 19.9324 19.0227 21.1596 96.0534 67.0097 105.858 2.31171 2.18715 2.63225 5.16912 5.14769 6.4684 4.98186 3.00932 5.41261 6.32191 6.03212 6.56603 5.89886 4.6403 6.06734 4.41079 3.90998 4.76526 2.86472 2.6159 3.0205 47.3523 22.7577 52.4575 2.25551 1.61382 6.39544 16.5822 11.9795 22.6055
1 36.348 34.8788 43.6746 NaN NaN NaN 20.8996 18.9072 22.7365 NaN NaN NaN 2.39181 2.02141 2.45768 6.50892 5.64572 7.39885 5.45491 4.43712 7.13662 5.98273 3.31605 6.90773 5.43239 5.33703 6.74015 4.3075 3.34361 20.2145 2.79667 2.59245 2.96513 48.7141 35.922 49.4795 8.27264 6.07862 10.4452 NaN NaN NaN
2 36.0358 34.2963 51.2165 15.2095 14.5304 16.3704 NaN NaN NaN NaN NaN NaN 2.47606 2.30732 2.6072 5.36374 4.12824 6.23926 5.3939 4.70051 7.43985 5.6002 4.50257 6.41532 6.16175 4.54922 6.20309 4.41545 3.42457 20.5273 3.41098 3.2853 3.92254 47.0791 44.3656 52.6191 1.75035 1.63972 2.8537 NaN NaN NaN
3 25.4076 23.8686 48.9281 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.42281 1.84378 2.54755 6.25397 6.08233 7.87131 5.14753 4.77687 5.74899 1.36391 0.0643742 4.81087 5.38193 4.19561 5.6631 3.89796 3.23258 4.53207 3.27793 2.16854 3.83194 48.535 42.0054 53.5435 8.65247 7.96842 15.7483 NaN NaN NaN
4 35.1603 31.2662 57.7451 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.2529 2.10711 2.48414 0.586034 0.0307001 0.973064 4.78042 4.35404 5.46539 0.0381851 0.0104963 0.147789 4.23311 3.7192 4.71972 3.13288 2.39042 4.15551 1.78883 1.61482 2.07032 48.137 43.4359 53.545 8.47154 5.63397 13.5121 NaN NaN NaN
5 39.6823 23.5563 59.734 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.2233 2.11202 3.38369 0.0346166 0.0226213 0.136586 5.18223 4.59045 5.24269 0.186592 0.0559424 1.52851 2.33779 1.73588 3.76922 1.53348 1.11833 1.94457 1.39663 1.01448 1.59958 40.9033 36.692 54.135 6.02566 3.89785 16.4405 NaN NaN NaN
EOD
set title "grain_ring against the other queues: one token per call (nopin/poll)"
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
