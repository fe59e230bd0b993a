# SPDX-License-Identifier: BSD-2-Clause
# ring_burst32_nopin_poll.gp - drawn by bench/report.py from build/bench-results; run: gnuplot ring_burst32_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_burst32_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 32.59 32.142 33.0381 68.6293 68.6293 68.6293 36.1149 15.9469 56.2829 12.1763 8.97851 15.3741 38.4936 22.6575 54.3298 50.7581 15.6111 53.4286 34.1949 34.1949 34.1949 19.0516 10.1391 29.504
1 44.2977 44.2977 44.2977 NaN NaN NaN 46.1393 42.0979 50.1807 NaN NaN NaN 13.4363 13.4363 13.4363 38.6119 38.6119 38.6119 40.2008 36.5459 46.7904 NaN NaN NaN
2 45.6781 21.8523 69.5039 NaN NaN NaN NaN NaN NaN NaN NaN NaN 85.6533 85.6533 85.6533 53.4931 48.9216 57.8106 23.2303 23.2303 23.2303 NaN NaN NaN
3 47.9412 25.9316 69.9509 NaN NaN NaN NaN NaN NaN NaN NaN NaN 14.4978 2.41752 48.828 58.0327 48.895 67.1704 36.7251 24.6944 48.7559 NaN NaN NaN
4 41.0657 28.2368 43.0545 NaN NaN NaN NaN NaN NaN NaN NaN NaN 17.2144 8.25921 26.1696 NaN NaN NaN 30.0877 17.6265 42.5489 NaN NaN NaN
5 27.8858 13.4564 32.1953 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.36062 1.36062 1.36062 10.8526 10.8526 10.8526 17.1106 11.0313 23.1899 NaN NaN NaN
EOD
set title "grain_ring against the other queues: bursts of 32 (partial enqueue and dequeue) (nopin/poll)"
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
plot $d using ($1 + -0.306):2:3:4 with yerrorbars lw 2 pt 5 ps 1.1 lc rgb '#1a5fb4' title "grain MPMC", \
     $d using ($1 + -0.219):5:6:7 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#e66100' title "grain MPSC", \
     $d using ($1 + -0.131):8:9:10 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#26a269' title "grain SPMC", \
     $d using ($1 + -0.044):11:12:13 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#a51d2d' title "grain SPSC", \
     $d using ($1 + 0.044):14:15:16 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#613583' title "rte_ring", \
     $d using ($1 + 0.131):17:18:19 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#986a44' title "rte_ring_hts", \
     $d using ($1 + 0.219):20:21:22 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#5e5c64' title "rte_ring_rts", \
     $d using ($1 + 0.306):23:24:25 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#c061cb' title "boost_spsc"
