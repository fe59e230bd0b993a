# SPDX-License-Identifier: BSD-2-Clause
# ring_burst32_pin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_burst32_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_burst32_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 347.151 329.634 380.115 204.34 202.98 217.19 311.392 270.625 347.694 200.229 145.668 209.228 66.3705 61.4486 68.3017 63.9948 61.6949 69.8671 63.4309 59.7511 64.7566 154.042 131.751 179.282
1 384.101 360.452 386.921 NaN NaN NaN 322.982 284.243 386.466 NaN NaN NaN 65.2725 61.7778 69.3351 65.2023 63.058 68.5044 63.6678 62.729 66.4528 NaN NaN NaN
2 318.798 260.313 354.167 202.777 180.968 216.777 NaN NaN NaN NaN NaN NaN 66.145 63.5043 73.4653 66.7111 63.3985 78.639 59.461 57.1972 64.7092 NaN NaN NaN
3 116.113 101.076 173.938 NaN NaN NaN NaN NaN NaN NaN NaN NaN 34.0538 32.6278 67.8681 73.0054 65.3549 77.1443 59.7797 57.763 64.3113 NaN NaN NaN
4 256.696 197.751 310.012 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.34485 0.48733 6.40269 46.2674 32.0709 65.1472 44.1887 30.3914 50.8034 NaN NaN NaN
5 348.565 328.38 362.154 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.14039 0.908322 1.80963 25.0551 19.5089 69.2307 21.0038 19.865 49.353 NaN NaN NaN
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
