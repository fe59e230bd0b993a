# SPDX-License-Identifier: BSD-2-Clause
# ring_bulk32_pin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_bulk32_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_bulk32_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 270.359 191.51 285.221 197.012 135.704 200.607 231.198 216.308 277.77 181.835 177.384 195.585 1.31191 1.22379 1.65676 2.46438 2.20111 2.82011 33.0708 15.7023 48.4956 63.3911 60.1544 87.886 64.8704 59.9832 345.532 62.8507 54.8098 64.4096 2.26238 2.13149 2.27832 118.03 114.338 126.006 1.8904 1.44997 3.6873 131.807 115.136 148.241
1 266.997 205.715 591.564 NaN NaN NaN 349.47 203.936 379.548 NaN NaN NaN 1.62431 1.16021 4.89283 3.31093 2.77477 9.49332 26.2267 21.461 47.9632 64.2454 60.6502 77.5784 69.0828 60.4129 337.076 60.1681 58.0764 60.6405 2.27029 2.22664 2.62764 176.094 111.748 310.887 1.5116 1.0879 2.85489 NaN NaN NaN
2 312.744 225.754 344.098 203.606 191.718 574.355 NaN NaN NaN NaN NaN NaN 1.38576 1.25481 1.57511 2.70851 2.37507 2.93911 25.601 18.6985 40.0693 65.2773 59.4536 379.512 63.8031 60.0563 74.0998 66.3394 55.8005 67.4361 2.75586 2.41683 2.89431 119.156 107.253 172.963 2.19194 1.65272 4.07212 NaN NaN NaN
3 138.971 107.771 163.98 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.49149 1.09982 4.83418 3.99814 3.71029 4.08865 38.2367 29.6467 46.6202 67.0943 42.0061 69.5121 72.6117 58.9856 77.5278 61.6797 53.1513 67.9477 2.6052 2.34746 2.77982 114.098 101.942 186.803 6.15225 1.86565 7.46985 NaN NaN NaN
4 205.654 167.135 263.275 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.26948 1.05203 1.64282 0.127909 0.0420242 1.71528 47.063 22.5258 87.4307 2.00526 0.915727 11.0314 48.3727 27.9795 67.0731 54.953 41.1736 58.1376 1.0759 1.01685 1.23035 166.65 110.201 201.258 5.7494 1.18599 11.09 NaN NaN NaN
5 237.897 183.702 279.258 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.42908 1.33478 1.61218 0.0437855 0.00720236 0.851893 37.5908 36.6734 46.3397 1.5858 0.63008 20.0582 42.4889 31.8932 60.4585 32.6049 15.0096 56.2671 0.573602 0.532246 0.779874 122.142 110.556 177.847 4.86206 2.03831 13.3589 NaN NaN NaN
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
