# SPDX-License-Identifier: BSD-2-Clause
# ring_bulk32_pin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_bulk32_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_bulk32_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 172.225 170.39 190.22 153.958 90.8685 177.346 170.076 154.514 185.472 171.118 146.215 177.823 2.41211 2.01093 3.28575 5.76384 4.79117 6.05899 35.4962 12.1781 37.1638 155.289 137.27 552.762 139.89 124.174 142.049 102.535 87.0403 107.384 2.80961 2.52941 2.92528 109.811 85.858 146.021 1.10599 0.401912 1.91268 198.178 173.705 220.196
1 168.675 148.803 172.231 NaN NaN NaN 174.824 163.324 188.188 NaN NaN NaN 2.39963 2.19596 3.1633 6.53037 5.95515 6.94672 50.1114 27.9684 54.658 147.917 135.605 159.807 134.273 121.053 149.898 87.7151 83.9275 104.508 2.67738 2.48069 2.99573 111.667 102.289 141.882 1.25051 0.509594 10.7219 NaN NaN NaN
2 171.163 142.433 174.775 161.824 158.938 177.769 NaN NaN NaN NaN NaN NaN 2.99262 2.43971 3.32807 6.17729 5.5563 6.57083 50.3234 46.8317 53.7014 143.632 110.981 160.93 140.074 134.718 158.451 99.7486 94.9206 108.082 4.21686 3.94392 6.30399 110.758 86.9561 151.594 1.55968 1.18874 2.49479 NaN NaN NaN
3 134.863 127.067 140.277 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.12811 1.75353 9.57541 7.41776 7.05601 7.73565 45.5849 42.3555 51.3843 95.9201 22.0899 119.41 122.893 110.727 150.634 86.2893 84.2064 105.04 5.05602 4.65439 5.13496 118.833 100.704 126.263 1.25334 1.09374 18.2327 NaN NaN NaN
4 159.889 155.41 189.48 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.3341 2.02943 2.49495 0.790014 0.040381 1.43688 44.7052 36.4566 45.5724 12.479 5.83656 74.6976 103.457 88.1528 110.183 81.2797 74.8022 86.156 1.69775 1.47029 1.96635 118.794 113.824 120.938 1.60443 0.806646 2.58653 NaN NaN NaN
5 164.27 149.437 168.989 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.64674 1.89447 2.92142 0.0879606 0.0712339 0.113012 48.5148 33.1893 51.7766 4.60681 1.49262 9.78612 101.356 62.3473 117.231 56.129 45.2751 81.2975 1.33218 1.07794 1.39469 109.222 105.747 135.032 1.18632 0.716567 25.3355 NaN NaN NaN
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
