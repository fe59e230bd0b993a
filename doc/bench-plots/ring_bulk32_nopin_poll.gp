# SPDX-License-Identifier: BSD-2-Clause
# ring_bulk32_nopin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_bulk32_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_bulk32_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 183.983 114.201 198.059 166.546 153.022 175.495 204.599 169.661 205.208 180.403 148.477 199.297 2.30606 2.05053 2.32647 5.70332 5.38225 6.34861 40.6679 24.0858 49.076 149.143 137.511 167.421 140.263 126.003 159.765 112.211 94.1046 129.36 3.56158 3.23579 4.03954 112.496 90.9779 122.57 3.40049 0.680418 9.12735 205.115 194.491 211.195
1 166.76 133.509 226.794 NaN NaN NaN 184.991 164.658 210.561 NaN NaN NaN 2.47195 2.36536 2.65003 6.43783 5.33348 15.164 43.8566 30.9116 57.6108 148.278 142.634 177.785 142.483 131.887 164.204 105.516 95.1108 121.237 2.8838 2.6594 2.93726 117.829 109.137 134.837 3.17927 1.91587 4.27731 NaN NaN NaN
2 182.668 143.964 183.445 167.015 159.23 176.392 NaN NaN NaN NaN NaN NaN 3.06473 2.23352 3.8706 4.57658 4.09222 6.46066 43.8471 43.1672 53.1649 112.481 104.674 132.98 143.697 132.014 166.098 105.327 96.4231 117.486 3.69688 3.29368 4.51653 127.766 86.0677 157.194 2.10865 0.607462 5.76746 NaN NaN NaN
3 146.823 126.255 177.576 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.19772 2.10131 2.28393 3.36818 2.18457 7.54209 49.536 44.0436 51.1683 12.7402 2.08991 73.1149 135.789 107.69 412.118 86.5757 85.7948 94.2287 3.31537 2.37662 3.85853 118.464 113.509 153.787 4.35909 2.31183 5.58671 NaN NaN NaN
4 166.701 153.3 178.287 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.60248 2.13539 3.61986 0.442862 0.108986 4.98378 51.8342 42.7529 60.2648 11.3578 2.50145 38.1735 87.0646 61.7228 153.518 77.6038 55.1405 267.399 2.09277 1.96824 2.13599 117.554 110.798 121.213 5.31232 3.55837 6.97499 NaN NaN NaN
5 163.67 130.009 178.71 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.5486 2.45397 3.38297 0.364648 0.0890325 1.2064 56.5041 51.1098 57.4123 2.56602 1.21321 14.8725 77.6225 37.5544 108.712 57.4213 34.4565 86.3083 1.4183 1.1892 1.99471 124.38 114.044 145.028 6.60689 2.71256 23.6608 NaN NaN NaN
EOD
set title "grain_ring against the other queues: batches of 32 (all-or-nothing enqueue, as-many-as-ready dequeue; ck_ring and wfcqueue loop single calls) (nopin/poll)"
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
