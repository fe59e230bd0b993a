# SPDX-License-Identifier: BSD-2-Clause
# ring_bulk32_nopin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_bulk32_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_bulk32_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 157.965 152.746 204.373 150.286 134.038 176.992 172.69 158.956 190.029 176.225 162.844 191.802 2.23731 2.20482 3.29124 6.18543 5.73574 6.62937 32.1849 13.4201 42.7555 145.421 135.308 150.077 135.306 134.105 151.362 98.349 77.8351 110.303 2.93525 2.61456 3.91759 115.769 93.124 168.956 0.897746 0.804918 2.7695 193.217 149.25 199.466
1 169.876 144.496 180.137 NaN NaN NaN 163.667 135.699 167.963 NaN NaN NaN 2.48576 2.11804 3.47884 5.82189 5.60542 6.23272 37.4769 23.2267 50.7944 109.334 98.8526 165.703 134.142 118.413 150.402 95.0256 90.9947 111.395 2.60304 2.5412 2.90103 108.149 102.641 126.462 1.2193 0.403652 4.64988 NaN NaN NaN
2 170.966 165.02 197.142 169.472 157.728 177.707 NaN NaN NaN NaN NaN NaN 2.30877 1.88287 2.65154 5.13586 3.29244 7.02593 52.5759 30.338 103.473 140.298 91.5568 146.44 134.241 129.986 157.302 97.2437 93.8603 105.377 3.70075 3.48089 4.58366 108.355 95.9252 135.642 1.14826 0.390193 3.24113 NaN NaN NaN
3 154.559 130.503 181.641 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.32511 1.62972 2.4867 6.64743 5.82464 7.21985 45.7368 41.6961 99.8907 33.548 6.62084 155.509 118.965 112.165 123.161 79.6152 74.9788 91.4595 3.35854 2.20411 3.76331 117.917 114.333 126.711 3.32353 1.23453 6.02823 NaN NaN NaN
4 166.365 148.885 185.575 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.21537 2.14185 2.53412 0.494275 0.00742995 1.33364 41.8317 36.1906 53.3914 3.23414 0.741958 48.3534 109.286 91.8231 121.171 75.2129 64.2857 95.9857 1.81797 1.69557 2.32004 106.685 90.1952 127.105 0.946104 0.517092 2.0501 NaN NaN NaN
5 187.081 159.144 197.94 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.3756 2.16881 2.56673 0.156886 0.0901779 0.697812 55.3451 26.2729 58.6265 3.38191 1.41225 5.02084 66.3192 52.5774 82.6956 72.0547 54.5042 75.4331 1.441 1.29961 1.63044 116.002 85.8096 122.539 1.344 0.732766 2.44099 NaN NaN NaN
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
