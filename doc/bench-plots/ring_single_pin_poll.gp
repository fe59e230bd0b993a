# SPDX-License-Identifier: BSD-2-Clause
# ring_single_pin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_single_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 30.5459 28.1783 41.5267 16.0974 13.6101 16.7541 19.538 18.4522 21.1812 78.1035 64.0944 102.624 2.37835 2.0772 16.2366 5.61024 5.19441 34.9046 4.81275 3.57501 5.35276 6.02405 5.30156 6.59398 5.58299 4.63424 6.33178 4.5086 3.22996 4.99608 2.73356 2.11506 3.15861 50.9036 44.1102 55.5207 1.48335 0.663325 1.5594 17.0989 15.6666 19.5168
1 35.8006 21.9351 59.7052 NaN NaN NaN 18.1575 15.6234 20.0318 NaN NaN NaN 2.32624 1.83185 2.52592 5.65987 5.45154 7.0153 5.52249 4.29569 6.55398 6.36348 5.9541 6.70743 6.32216 4.58791 19.8413 3.65716 3.31649 4.97864 2.78633 2.38937 3.54149 50.9522 44.5882 53.7822 5.73078 4.03359 14.9226 NaN NaN NaN
2 42.6685 32.443 43.581 15.3555 12.9712 15.7182 NaN NaN NaN NaN NaN NaN 2.51708 2.30394 3.10762 5.49916 5.1061 6.82441 4.63031 4.00356 8.9397 6.56034 5.46328 7.36294 5.63697 5.17951 6.6506 4.5994 3.17764 20.2857 4.13237 3.78008 4.29667 40.1145 28.8927 52.0156 2.11265 1.6701 4.83923 NaN NaN NaN
3 15.8743 13.1614 20.9544 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.2056 1.85536 2.82052 7.25485 6.62224 7.92295 4.99307 4.73763 6.41841 3.51569 3.12978 6.55973 5.06476 4.52461 6.13157 4.05836 3.67139 4.22711 4.52754 4.44345 4.83917 45.3075 23.5737 50.9235 7.88434 2.96204 9.46545 NaN NaN NaN
4 30.2658 22.9027 34.958 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.09797 1.96857 16.1015 0.0861103 0.0227662 0.290857 4.27604 4.22008 4.75971 0.250042 0.0232232 0.570704 4.24122 3.0514 5.83149 3.02593 2.81284 3.42346 1.75971 1.73306 2.0872 46.6748 38.3069 50.4903 5.9465 4.1836 7.85183 NaN NaN NaN
5 33.1293 28.6481 45.3827 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.50277 2.01648 16.1811 0.301082 0.15391 0.55595 5.03801 3.06902 5.19201 0.0913102 0.016947 0.403261 2.37348 1.81705 3.48133 2.10097 1.38601 2.98865 1.37442 1.18159 1.48327 40.6512 39.4981 47.3126 5.74078 4.6506 7.34731 NaN NaN NaN
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
