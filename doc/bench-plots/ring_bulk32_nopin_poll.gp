# SPDX-License-Identifier: BSD-2-Clause
# ring_bulk32_nopin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_bulk32_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_bulk32_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 220.393 179.916 267.459 154.183 141.03 197.724 273.352 225.652 372.164 151.764 144.531 173.28 1.12284 1.01951 1.14934 2.48955 2.37457 3.3919 29.7971 20.4532 48.6576 63.5566 61.1596 367.104 63.4668 59.9441 70.7651 58.9987 55.0558 100.699 2.20915 2.17435 2.35905 172.525 121.976 195.34 1.79999 1.74377 2.16089 120.843 113.232 133.62
1 228.69 187.112 334.421 NaN NaN NaN 326.725 265.371 370.992 NaN NaN NaN 1.63451 1.14544 4.86569 2.63631 2.55194 3.02362 43.1043 35.4367 88.0151 58.4776 39.2821 61.6587 62.8293 57.3026 69.6815 59.3398 54.497 63.4273 2.24987 2.02322 2.43749 115.68 105.583 126.904 1.73825 0.595593 2.34616 NaN NaN NaN
2 275.665 241.315 342.86 190.378 145.453 193.054 NaN NaN NaN NaN NaN NaN 1.30877 1.23334 1.63928 2.36634 1.91689 4.93235 27.0243 16.7998 50.2746 51.2564 38.3826 68.4963 66.0838 63.9434 86.9373 58.6347 55.2825 62.45 2.48948 2.21426 3.21734 121.255 112.155 175.428 5.27934 0.930697 14.7484 NaN NaN NaN
3 193.534 183.694 232.922 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.27721 1.10142 1.83291 3.36176 0.881651 4.91095 38.6398 18.7175 50.3279 6.47839 0.42001 60.2153 65.1167 63.8649 69.7598 53.8614 33.8903 171.399 1.93248 1.53567 2.05929 126.15 115.33 193.561 3.66143 1.18561 5.43922 NaN NaN NaN
4 217.68 196.371 349.012 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.39511 1.28843 1.60968 0.130783 0.00637437 0.859879 49.2892 17.0337 129.851 5.65371 0.422454 9.50873 41.2287 34.7313 62.8016 39.8353 28.507 53.1646 0.919839 0.795709 1.18148 111.27 105.842 183.897 11.0402 3.50489 18.359 NaN NaN NaN
5 277.935 192.045 326.489 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.44346 1.23092 1.9231 0.105304 0.0104662 1.65902 26.4279 24.2732 36.0613 1.48846 0.439863 4.12067 41.0157 19.1712 48.8612 30.4953 15.7334 68.395 0.694872 0.518435 0.812258 113.485 109.962 170.009 13.9193 1.70634 14.8705 NaN NaN NaN
EOD
set title "grain_ring against the other queues: batches of 32 (all-or-nothing enqueue, as-many-as-ready dequeue; ck_ring and wfcqueue loop single calls) (nopin/poll)"
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
