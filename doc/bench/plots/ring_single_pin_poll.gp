# SPDX-License-Identifier: BSD-2-Clause
# ring_single_pin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_single_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 35.0627 33.5876 35.59 18.0984 15.1034 19.0143 45.6799 43.5078 50.388 96.3975 95.3302 97.3349 1.17364 1.13781 1.2578 2.44276 2.23378 2.80279 8.1284 3.15391 8.53158 2.48218 2.38087 4.17663 2.35199 2.27084 2.67079 2.34881 2.24653 2.42971 2.53214 2.32976 2.68839 78.2331 41.8649 84.0364 2.89505 0.508977 4.54025 22.3827 15.4004 24.2515
1 34.0268 32.5308 35.7639 NaN NaN NaN 45.1489 41.3426 52.3114 NaN NaN NaN 1.32901 1.1153 1.6197 2.65052 2.47864 3.14251 6.68654 3.94158 8.69447 2.35038 2.25198 3.19546 2.58637 2.46484 2.60575 2.36183 2.31552 2.77824 2.28738 2.03308 2.37775 74.5309 38.1508 80.7604 9.45005 6.63003 10.7642 NaN NaN NaN
2 41.2897 39.7384 46.128 14.4562 10.2328 19.902 NaN NaN NaN NaN NaN NaN 1.39421 1.22851 1.62704 2.32533 2.17857 2.7901 8.11555 4.56718 8.39125 2.77725 2.4302 3.3639 2.44638 2.28244 3.18594 2.4582 2.27568 2.54355 2.88124 2.82911 3.24249 60.4876 60.1843 79.6189 2.75342 2.1035 5.03302 NaN NaN NaN
3 12.1456 10.6726 21.6259 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.16124 1.06793 2.75304 3.99311 3.73839 4.2462 8.56144 8.12277 9.01893 2.46561 1.78956 2.98152 5.1734 4.68082 6.85496 4.74503 4.34913 5.23007 2.51851 2.45693 2.71713 76.9699 48.4354 81.8684 6.00533 5.8241 8.57474 NaN NaN NaN
4 21.7374 16.0093 24.3732 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.35183 1.1035 1.6857 0.0443771 0.0131109 0.172282 6.85838 3.23323 8.93142 0.079575 0.0172978 0.700014 2.89884 2.55804 4.69051 2.28981 1.91509 2.77632 1.10587 1.08923 1.24223 80.6318 54.1312 88.9327 7.34482 6.30426 9.21086 NaN NaN NaN
5 30.8322 29.1621 34.0133 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.17241 1.10845 1.30709 0.0453076 0.0132362 0.141268 8.2269 2.24982 8.98001 0.0638574 0.0345263 0.177941 0.618536 0.501754 0.891975 0.854352 0.465868 1.00819 0.736979 0.708238 0.820487 58.6017 51.3335 80.9396 10.1606 8.66459 11.078 NaN NaN NaN
EOD
set title "grain_ring against the other queues: one token per call (pin/poll)"
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
