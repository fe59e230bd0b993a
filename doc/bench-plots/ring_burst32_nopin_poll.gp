# SPDX-License-Identifier: BSD-2-Clause
# ring_burst32_nopin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_burst32_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_burst32_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 171.949 163.008 186.199 177.915 165.415 188.99 182.109 158.624 193.704 173.688 161.938 175.289 162.6 144.661 163.676 125.019 108.808 161.469 110.131 98.9447 129.868 197.899 189.482 224.437
1 169.035 147.142 202.032 NaN NaN NaN 178.93 160.515 199.737 NaN NaN NaN 129.316 94.5456 152.065 142.375 132.734 166.079 117.583 87.4096 123.61 NaN NaN NaN
2 193.205 175.476 198.403 166.538 160.39 176.578 NaN NaN NaN NaN NaN NaN 147.743 119.321 158.122 142.414 116.958 171.28 117.039 106.438 131.382 NaN NaN NaN
3 175.659 164.961 202.356 NaN NaN NaN NaN NaN NaN NaN NaN NaN 57.0828 33.9866 99.7713 110.905 107.047 125.055 91.1447 82.8022 106.354 NaN NaN NaN
4 176.189 170.535 205.234 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.6136 1.4183 131.898 91.873 68.8065 121.246 75.7668 66.605 97.096 NaN NaN NaN
5 193.815 174.119 197.756 NaN NaN NaN NaN NaN NaN NaN NaN NaN 3.38141 1.82404 11.7958 48.9194 46.7106 51.7933 52.6385 30.451 90.7515 NaN NaN NaN
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
