# SPDX-License-Identifier: BSD-2-Clause
# ring_burst32_pin_poll.gp - drawn by bench/report.py from build/bench-results/quick; run: gnuplot ring_burst32_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_burst32_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 32.5084 21.7846 43.2323 18.9344 18.9344 18.9344 84.4654 39.5355 129.395 32.2925 16.9001 47.6848 25.3812 23.7418 27.0205 29.4164 29.4164 29.4164 32.1071 21.8362 42.378 13.3139 13.3139 13.3139
1 66.58 56.718 76.4421 NaN NaN NaN 66.4509 57.6894 75.2124 NaN NaN NaN 65.6784 58.5838 72.773 67.6543 57.7772 77.5315 52.0989 43.622 60.5758 NaN NaN NaN
2 14.1147 0 28.2295 53.123 32.5679 73.6782 NaN NaN NaN NaN NaN NaN 44.8304 32.6191 57.0417 62.9492 62.246 63.6525 47.8055 44.3403 51.2706 NaN NaN NaN
3 52.3366 52.3366 52.3366 NaN NaN NaN NaN NaN NaN NaN NaN NaN 65.3403 51.7228 78.9578 82.7485 58.8981 106.599 52.2871 44.6443 59.9298 NaN NaN NaN
4 92.323 59.0035 125.643 NaN NaN NaN NaN NaN NaN NaN NaN NaN 29.0408 9.58092 48.5007 60.9307 60.1082 61.7532 58.4779 51.064 65.8918 NaN NaN NaN
EOD
set title "grain_ring against the other queues: bursts of 32 (partial enqueue and dequeue) (pin/poll)"
set ylabel 'million pairs/s, median, bars min–max, log scale'
set xlabel 'configuration: P producer and C consumer threads' offset 0,-1
set bmargin 5
set logscale y
set format y '%g'
set xtics ("1P1C\n2 threads" 0, "1P2C\n3 threads" 1, "2P1C\n3 threads" 2, "2P2C\n4 threads" 3, "4P4C\n8 threads" 4)
set xrange [-0.5:4.5]
set grid xtics lc rgb '#eeeeee'
set xtics add ('' 4.5)
set object 1 rect from 0.5, graph 0 to 4.5, graph 1 behind fc rgb '#f1e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed' at 4.5, graph 0.98 right offset -0.5,0 tc rgb '#a05050'
plot $d using ($1 + -0.306):2:3:4 with yerrorbars lw 2 pt 5 ps 1.1 lc rgb '#1a5fb4' title "grain MPMC", \
     $d using ($1 + -0.219):5:6:7 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#e66100' title "grain MPSC", \
     $d using ($1 + -0.131):8:9:10 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#26a269' title "grain SPMC", \
     $d using ($1 + -0.044):11:12:13 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#a51d2d' title "grain SPSC", \
     $d using ($1 + 0.044):14:15:16 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#613583' title "rte_ring", \
     $d using ($1 + 0.131):17:18:19 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#986a44' title "rte_ring_hts", \
     $d using ($1 + 0.219):20:21:22 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#5e5c64' title "rte_ring_rts", \
     $d using ($1 + 0.306):23:24:25 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#c061cb' title "boost_spsc"
