# SPDX-License-Identifier: BSD-2-Clause
# ring_burst32_nopin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_burst32_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_burst32_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 174.272 150.706 195.146 155.856 140.607 183.542 181.101 160.896 191.691 170.156 155.865 192.474 130.097 116.607 151.012 129.372 112.753 137.819 100.648 59.4944 115.678 193.346 174.646 239.594
1 167.542 150.917 169.987 NaN NaN NaN 164.231 144.366 166.308 NaN NaN NaN 98.0396 87.1502 174.379 130.034 115.313 134.496 97.774 84.2915 98.6206 NaN NaN NaN
2 173.939 144.152 187.018 161.108 147.124 165.277 NaN NaN NaN NaN NaN NaN 104.884 78.7792 147.35 143.013 117.903 154.49 110.978 83.9946 551.506 NaN NaN NaN
3 135.886 130.746 170.402 NaN NaN NaN NaN NaN NaN NaN NaN NaN 26.012 3.84569 62.8028 116.595 97.9855 118.007 85.7717 76.0719 101.025 NaN NaN NaN
4 166.019 139.835 199.848 NaN NaN NaN NaN NaN NaN NaN NaN NaN 3.04118 1.11134 6.57235 103.176 93.8096 139.572 69.793 55.1949 86.6795 NaN NaN NaN
5 151.588 140.467 189.413 NaN NaN NaN NaN NaN NaN NaN NaN NaN 7.02087 0.334183 7.3195 107.41 47.4223 111.344 69.6513 53.5814 73.1205 NaN NaN NaN
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
