# SPDX-License-Identifier: BSD-2-Clause
# ring_bulk32_nopin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_bulk32_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_bulk32_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 360.315 170.506 361.723 228.491 94.579 323.511 288.488 158.67 384.461 291.673 147.866 408.02 4.39782 1.89218 5.40297 12.137 5.43539 13.295 60.5237 23.7742 98.1116 286.526 81.6623 406.218 284.5 106.207 377.642 253.208 90.1561 349.322 6.90532 2.67685 19.9171 170.628 99.3636 203.805 12.1037 3.32757 29.5253 389.351 331.788 415.365
1 177.753 163.497 277.07 NaN NaN NaN 289.394 159.114 363.877 NaN NaN NaN 4.69863 1.78184 13.7933 13.9047 12.3733 15.818 51.3477 35.5561 113.165 282.798 173.933 372.931 306.286 80.122 386.471 311.484 199.621 386.325 6.68134 1.91273 7.6344 156.213 116.452 189.717 6.64254 5.09509 20.4628 NaN NaN NaN
2 280.847 144.885 350.308 107.754 86.6512 213.37 NaN NaN NaN NaN NaN NaN 5.01548 4.2519 5.24152 8.23572 4.11302 12.0008 77.799 18.3101 97.03 192.907 75.2173 460.435 99.0612 80.1579 357.51 325.263 91.6313 355.46 7.64301 2.0724 8.9444 162.657 85.7732 190.588 40.316 6.83435 91.5319 NaN NaN NaN
3 183.598 133.67 320.912 NaN NaN NaN NaN NaN NaN NaN NaN NaN 4.84152 4.5219 5.269 13.5958 1.4249 15.4848 39.3959 29.4215 84.6415 29.535 4.80788 129.514 271.836 227.369 287.276 241.02 186.59 273.651 2.75003 1.53117 6.29682 146.553 96.5597 203.622 20.7983 11.3863 43.0222 NaN NaN NaN
4 320.603 243.583 392.092 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.28087 2.14583 14.0954 0.24604 0.0729278 3.56367 75.6058 68.7672 86.2009 8.39625 2.45384 30.149 271.722 50.3375 365.944 173.784 56.1378 239.016 1.63312 1.1747 1.82328 127.02 100.612 171.748 26.658 20.4109 46.5427 NaN NaN NaN
5 171.429 118.294 373.591 NaN NaN NaN NaN NaN NaN NaN NaN NaN 5.0928 4.96759 5.44815 0.158803 0.0675001 0.273849 75.3438 28.6489 92.328 3.14192 1.45041 5.4864 146.646 38.1821 202.34 108.377 19.8332 175.207 0.974713 0.815766 1.41817 166.074 79.5944 199.178 30.1289 20.4493 51.3509 NaN NaN NaN
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
