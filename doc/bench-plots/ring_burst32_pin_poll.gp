# SPDX-License-Identifier: BSD-2-Clause
# ring_burst32_pin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_burst32_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_burst32_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 166.48 133.952 185.232 171 161.63 179.007 164.429 139.365 201.929 185.588 164.781 218.781 126.144 121.442 159.548 132.246 122.727 148.07 102.395 98.3324 126.118 183.666 172.729 219.684
1 182.211 141.967 183.042 NaN NaN NaN 162.367 132.783 192.183 NaN NaN NaN 145.902 124.095 156.189 140.605 127.039 462.85 97.592 94.2905 119.405 NaN NaN NaN
2 151.128 142.219 173.543 162.602 153.286 196.981 NaN NaN NaN NaN NaN NaN 142.801 128.42 152.785 151.688 120.808 166.841 100.801 92.4961 527.148 NaN NaN NaN
3 118.862 116.849 141.61 NaN NaN NaN NaN NaN NaN NaN NaN NaN 70.871 36.2174 128.042 146.469 93.2534 152.199 94.0987 90.5071 102.526 NaN NaN NaN
4 142.735 129.391 154.597 NaN NaN NaN NaN NaN NaN NaN NaN NaN 3.52654 2.58562 18.5252 106.071 92.3199 347.757 85.0427 80.5809 96.131 NaN NaN NaN
5 151.397 143.173 178.732 NaN NaN NaN NaN NaN NaN NaN NaN NaN 5.5509 2.16305 8.21929 79.3338 52.9483 93.6107 64.7974 45.7333 68.2448 NaN NaN NaN
EOD
set title "grain_ring against the other queues: bursts of 32 (partial enqueue and dequeue) (pin/poll)"
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
