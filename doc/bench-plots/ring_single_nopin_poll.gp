# SPDX-License-Identifier: BSD-2-Clause
# ring_single_nopin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_single_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 165.278 58.6277 183.406 42.5938 40.5207 46.7394 213.531 75.7539 222.677 107.427 36.5727 132.687 2.19042 1.8116 4.57633 8.29809 7.31097 14.6906 9.8887 6.65972 15.7632 15.602 7.56467 17.1129 17.8211 15.6195 27.0231 9.68991 5.16128 22.6744 7.34726 2.11941 7.82397 193.082 68.2496 212.311 11.0064 6.44522 27.515 16.3042 10.0253 30.4819
1 115.021 50.7858 184.537 NaN NaN NaN 190.536 73.5888 200.852 NaN NaN NaN 5.61865 2.04677 14.0128 14.0011 6.81103 15.1602 7.69941 6.38528 13.1029 13.3705 5.88122 18.0731 5.84512 3.31262 14.5824 10.1951 3.84235 10.653 7.11453 2.04701 8.40275 127.746 78.726 190.832 29.2688 15.2062 40.9546 NaN NaN NaN
2 139.544 69.2541 190.554 46.3925 12.2335 59.6847 NaN NaN NaN NaN NaN NaN 2.94381 1.79407 14.2962 13.9053 5.67942 15.0111 14.982 12.3181 16.1021 4.73561 4.2011 18.2461 15.4936 13.8176 24.2826 10.4525 5.35625 10.9472 7.30319 2.73638 9.57261 83.6865 68.5946 189.506 16.7022 9.4325 39.0311 NaN NaN NaN
3 79.2625 56.1583 90.0917 NaN NaN NaN NaN NaN NaN NaN NaN NaN 4.6572 2.00021 4.90268 3.92251 2.03439 7.35803 12.1992 6.913 16.088 8.20248 0.0973848 8.74004 10.7259 4.28835 12.243 9.9487 9.8502 10.7355 1.5728 1.46351 4.19965 157.151 75.7216 222.282 25.0009 21.2119 36.8053 NaN NaN NaN
4 107.237 62.8476 174.575 NaN NaN NaN NaN NaN NaN NaN NaN NaN 4.74043 1.72846 13.1469 0.140637 0.0466939 0.570001 14.4977 9.48209 15.4282 0.0835461 0.0237564 1.06822 9.24715 3.48337 9.65422 7.72478 6.0821 9.75299 1.58863 1.38558 2.05551 179.484 105.375 227.028 25.4287 18.2122 35.2983 NaN NaN NaN
5 109.964 74.3632 172.784 NaN NaN NaN NaN NaN NaN NaN NaN NaN 4.9479 2.04872 14.1339 0.293407 0.112265 1.83057 12.2317 7.13382 14.671 0.150817 0.0539191 0.346472 5.89486 1.37057 10.0248 3.13196 1.8274 6.67329 1.10861 0.738828 1.27886 88.3698 74.6518 234.861 28.3378 15.3564 35.1039 NaN NaN NaN
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
