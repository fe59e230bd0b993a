# SPDX-License-Identifier: BSD-2-Clause
# ring_single_nopin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_single_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 42.2559 30.6012 46.1934 15.7956 14.4375 16.6664 19.9547 18.1983 22.9666 98.226 72.8877 112.306 2.23863 2.15544 3.47385 5.34289 5.03726 5.85819 5.10177 4.56635 5.58249 6.35026 5.38276 7.26807 6.64949 4.47331 33.7021 3.91646 3.37565 4.25218 3.39468 2.82055 3.61007 49.0819 34.3507 51.4605 3.45025 1.35146 7.17183 20.6363 16.4785 23.1334
1 35.3438 31.5061 43.2091 NaN NaN NaN 20.3176 18.7567 23.2574 NaN NaN NaN 2.40385 2.19246 3.10712 6.15776 5.16257 6.61906 5.12408 3.76711 5.56126 4.68395 3.99173 6.11182 5.19017 4.76652 6.39283 4.51316 4.29982 4.9994 2.72184 2.63261 2.8088 40.5225 36.8758 47.7539 9.13721 7.38826 11.3817 NaN NaN NaN
2 43.8488 39.2866 52.9177 15.7934 13.7461 16.4444 NaN NaN NaN NaN NaN NaN 2.46913 2.13999 3.29807 5.07291 3.80237 7.04863 4.99041 4.23564 5.46221 6.0269 4.75372 6.3163 5.49736 5.20514 5.89664 4.49218 4.06494 5.25584 3.52832 3.46264 4.03521 52.8271 49.4137 54.2933 2.94507 1.78169 6.4746 NaN NaN NaN
3 34.9242 21.4917 43.981 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.36752 1.97764 2.7916 6.61388 1.97896 6.93475 5.88188 5.07958 6.89209 3.73689 0.194323 5.15506 5.28492 3.41038 5.96988 4.06992 2.92028 4.7647 2.49499 2.33758 4.13341 44.4085 41.7485 53.7586 9.6681 6.15587 13.4583 NaN NaN NaN
4 34.5519 26.1524 44.7261 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.3051 2.10468 2.63759 0.489501 0.287271 4.13173 5.21743 4.63661 6.02463 0.441635 0.0320184 0.592651 3.27223 2.57859 5.37154 2.9539 2.18877 3.61552 2.06648 1.96826 2.15355 51.6888 38.8119 54.0544 12.2782 8.80107 20.8754 NaN NaN NaN
5 38.1775 30.2516 42.4211 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.54306 2.28638 3.17149 0.211726 0.0531517 0.303241 4.82455 3.57623 5.47849 0.103003 0.0704381 0.165358 1.47068 1.05883 11.827 1.59817 0.974014 1.94818 1.61554 1.37419 1.68462 46.3391 43.8703 53.7316 6.96121 3.83254 9.05496 NaN NaN NaN
EOD
set title "grain_ring against the other queues: one token per call (nopin/poll)"
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
