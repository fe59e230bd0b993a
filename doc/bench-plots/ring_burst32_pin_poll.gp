# SPDX-License-Identifier: BSD-2-Clause
# ring_burst32_pin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_burst32_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_burst32_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 187.149 176.597 195.249 160.958 155.732 174.962 190.466 174.781 262.716 167.258 162.998 179.489 152.275 134.55 161.201 131.46 117.465 155.981 96.4794 90.0388 133.746 197.742 191.013 223.862
1 180.861 164.424 262.653 NaN NaN NaN 187.031 166.261 201.479 NaN NaN NaN 143.994 137.299 154.239 146.202 128.333 151.144 112.533 96.0653 122.604 NaN NaN NaN
2 184.187 174.499 197.785 162.799 148.267 173.242 NaN NaN NaN NaN NaN NaN 148.561 141.701 151.307 127.527 113.139 136.59 115.743 93.3675 132.66 NaN NaN NaN
3 132.679 121.266 148.02 NaN NaN NaN NaN NaN NaN NaN NaN NaN 100.453 44.8028 137.277 133.42 118.433 155 101.04 91.4119 105.16 NaN NaN NaN
4 165.523 147.437 175.434 NaN NaN NaN NaN NaN NaN NaN NaN NaN 5.47881 0.782051 37.8998 90.7975 80.8682 103.411 80.8998 73.4688 89.8577 NaN NaN NaN
5 173.262 168.342 193.73 NaN NaN NaN NaN NaN NaN NaN NaN NaN 5.98642 1.31823 95.6229 61.4351 54.8798 123.55 61.7566 49.6531 71.792 NaN NaN NaN
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
