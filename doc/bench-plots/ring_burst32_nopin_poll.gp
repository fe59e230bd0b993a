# SPDX-License-Identifier: BSD-2-Clause
# ring_burst32_nopin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_burst32_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_burst32_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 175.641 163.462 202.821 150.282 138.316 178.383 165.707 158.042 185.819 165.26 131.889 173.402 141.105 136.309 151.244 125.032 108.655 151.121 111.37 90.6124 116.944 180.505 177.601 220.221
1 175.772 158.997 197.892 NaN NaN NaN 163.56 157.774 176.503 NaN NaN NaN 104.47 91.8413 131.982 125.054 120.965 162.195 96.088 95.3253 106.878 NaN NaN NaN
2 172.922 143.593 189.146 178.096 161.732 200.042 NaN NaN NaN NaN NaN NaN 103.361 94.7837 133.301 134.635 124.569 141.572 100.414 90.7633 114.893 NaN NaN NaN
3 182.989 131.475 190.046 NaN NaN NaN NaN NaN NaN NaN NaN NaN 19.0682 7.70702 53.2885 124.154 114.448 145.13 94.7305 72.3977 98.6797 NaN NaN NaN
4 165.327 148.298 180.684 NaN NaN NaN NaN NaN NaN NaN NaN NaN 5.68645 1.81679 5.86402 103.314 66.8538 113.148 74.1719 67.7342 102.489 NaN NaN NaN
5 175.55 159.359 200.883 NaN NaN NaN NaN NaN NaN NaN NaN NaN 0.731145 0.489865 3.88785 80.2894 52.8191 109.15 58.0158 41.0829 77.5626 NaN NaN NaN
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
