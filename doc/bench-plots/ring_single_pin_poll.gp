# SPDX-License-Identifier: BSD-2-Clause
# ring_single_pin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_single_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 166.011 75.7723 184.227 48.489 13.2968 55.4581 80.158 70.0788 169.421 97.7138 33.3416 107.341 1.96692 1.84814 5.14049 13.678 7.6225 27.0961 8.34696 7.05911 12.3904 6.45524 5.62571 17.876 13.8324 5.53938 16.6983 10.4525 4.06588 11.1477 2.26975 1.90337 7.66979 173.444 84.0244 185.411 30.8443 20.7685 47.667 27.7546 23.8408 31.4835
1 94.1739 66.5224 178.515 NaN NaN NaN 172.299 69.006 197.452 NaN NaN NaN 4.93039 2.17953 11.8015 14.2017 7.42186 16.2953 12.4404 7.58376 16.3299 16.132 6.58917 18.1604 15.365 6.63508 27.2626 10.9578 4.40248 22.9491 7.57129 1.91578 8.04806 115.776 71.2656 201.804 26.1564 17.0306 29.4495 NaN NaN NaN
2 68.0165 55.8414 183.804 40.2419 11.1375 57.7524 NaN NaN NaN NaN NaN NaN 5.33322 1.75496 5.35724 14.7163 13.4967 16.9731 7.74946 6.1586 14.7753 15.768 5.95114 17.3743 16.0819 6.4691 16.7525 9.93903 5.18607 11.5609 9.51521 2.61949 10.2295 86.4581 75.6752 110.834 14.7282 9.97201 35.0614 NaN NaN NaN
3 63.3163 25.7114 84.4265 NaN NaN NaN NaN NaN NaN NaN NaN NaN 4.1365 1.491 4.49165 6.49557 5.78985 16.868 9.82106 7.38382 14.7218 10.346 3.27447 15.0676 12.0824 6.3832 17.1185 9.90845 6.51002 10.9698 9.27201 3.58652 9.55343 118.987 77.9946 184.732 19.5111 10.2448 22.3605 NaN NaN NaN
4 79.2651 51.4028 133.647 NaN NaN NaN NaN NaN NaN NaN NaN NaN 5.21022 1.91004 5.64084 0.342874 0.23159 1.39759 11.1035 5.3466 16.0793 0.126118 0.0751123 0.356029 9.78309 3.76589 10.752 8.09754 4.07722 13.7795 1.62944 1.00375 1.69768 86.6007 76.0736 218.72 15.5779 3.87364 25.7551 NaN NaN NaN
5 139.681 52.8085 168.425 NaN NaN NaN NaN NaN NaN NaN NaN NaN 5.44819 2.00702 6.17304 0.672606 0.0679346 0.937942 14.1561 9.99723 15.3165 0.121436 0.0726379 0.502541 5.83846 2.11501 8.50801 4.5316 2.32401 5.62437 0.867888 0.815397 1.02426 118.139 73.7876 214.986 20.1311 10.8824 33.8923 NaN NaN NaN
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
