# SPDX-License-Identifier: BSD-2-Clause
# ring_single_pin_poll.gp - drawn by bench/report.py from build/bench-results/quick; run: gnuplot ring_single_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 8.68216 7.15044 10.2139 5.28384 4.4465 6.12118 9.02689 7.05013 11.0037 7.13355 5.09253 9.17457 NaN NaN NaN 1.69005 1.53288 1.84722 5.42191 4.18895 6.65488 2.07634 1.33626 2.81642 1.70564 1.19521 2.21607 2.05386 1.61784 2.48988 1.07389 1.07389 1.07389 1.38519 1.29134 1.47904 0.52691 0.497907 0.555914 12.2372 11.2544 13.2201 6.57461 4.8251 8.32413 3.82066 3.74312 3.89819 11.1524 11.1524 11.1524
1 23.9584 23.9584 23.9584 NaN NaN NaN 22.9228 22.1655 23.6801 NaN NaN NaN 6.13714 2.18404 10.0902 22.2581 18.9612 25.5551 NaN NaN NaN NaN NaN NaN 27.1633 26.8245 27.502 15.3288 2.33158 28.3259 9.04103 3.96707 14.115 11.8145 1.79881 21.8301 3.67772 3.47944 3.87599 43.4003 43.4003 43.4003 7.87778 5.62789 10.1277 NaN NaN NaN NaN NaN NaN
2 NaN NaN NaN 42.7802 34.8525 50.7079 NaN NaN NaN NaN NaN NaN 13.1673 9.52684 16.8077 15.3214 6.20916 24.4337 NaN NaN NaN NaN NaN NaN 18.1214 12.5216 23.7213 8.72764 3.34814 14.1071 16.0299 6.66433 25.3954 20.7324 15.9724 25.4925 5.72571 5.46388 5.98754 32.4655 11.4974 53.4337 17.1831 6.37906 27.9872 NaN NaN NaN NaN NaN NaN
3 25.4283 25.028 25.8287 NaN NaN NaN NaN NaN NaN NaN NaN NaN 17.6975 8.75686 26.6382 20.0244 10.7957 29.2531 19.7075 17.4961 21.9188 18.0761 12.369 23.7832 25.0756 25.0756 25.0756 9.30755 0.305013 18.3101 10.1313 9.53341 10.7291 13.5645 7.84635 19.2827 6.49277 4.34417 8.64138 16.3344 13.8124 18.8565 15.1504 8.56828 21.7325 NaN NaN NaN NaN NaN NaN
4 19.5325 19.5325 19.5325 NaN NaN NaN NaN NaN NaN NaN NaN NaN 11.0408 11.0408 11.0408 6.44385 0.369064 12.5186 14.6174 13.0899 16.1449 3.18104 3.18104 3.18104 7.90089 7.90089 7.90089 0.34945 0.34945 0.34945 14.9541 8.978 20.9302 17.1357 17.1357 17.1357 0.951352 0.389625 1.51308 33.04 27.6232 38.4567 8.48531 6.87897 10.0916 NaN NaN NaN NaN NaN NaN
EOD
set title "grain_ring against the other queues: one token per call (pin/poll)"
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
plot $d using ($1 + -0.329):2:3:4 with yerrorbars lw 2 pt 5 ps 1.1 lc rgb '#1a5fb4' title "grain MPMC", \
     $d using ($1 + -0.288):5:6:7 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#e66100' title "grain MPSC", \
     $d using ($1 + -0.247):8:9:10 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#26a269' title "grain SPMC", \
     $d using ($1 + -0.206):11:12:13 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#a51d2d' title "grain SPSC", \
     $d using ($1 + -0.165):14:15:16 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#613583' title "boost_queue", \
     $d using ($1 + -0.124):17:18:19 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#986a44' title "ck_ring", \
     $d using ($1 + -0.082):20:21:22 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#5e5c64' title "moody_queue", \
     $d using ($1 + -0.041):23:24:25 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#c061cb' title "moody_queue_tok", \
     $d using ($1 + 0.000):26:27:28 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#2ec27e' title "mutex", \
     $d using ($1 + 0.041):29:30:31 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#f5c211' title "rte_ring", \
     $d using ($1 + 0.082):32:33:34 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#1a5fb4' title "rte_ring_hts", \
     $d using ($1 + 0.124):35:36:37 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#e66100' title "rte_ring_rts", \
     $d using ($1 + 0.165):38:39:40 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#26a269' title "tbb_queue", \
     $d using ($1 + 0.206):41:42:43 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#a51d2d' title "twolock", \
     $d using ($1 + 0.247):44:45:46 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#613583' title "wfcqueue", \
     $d using ($1 + 0.288):47:48:49 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#986a44' title "boost_spsc", \
     $d using ($1 + 0.329):50:51:52 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#5e5c64' title "moody_rwq"
