# SPDX-License-Identifier: BSD-2-Clause
# ring_single_nopin_poll.gp - drawn by bench/report.py from build/bench-results; run: gnuplot ring_single_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 12.8008 4.3916 23.964 NaN NaN NaN 30.0935 19.8937 37.1461 28.065 25.8613 30.2686 14.0294 0.502249 27.5565 22.5385 1.49366 30.3816 2.07625 1.38668 13.4966 NaN NaN NaN 1.88464 0.368846 2.90396 19.7976 0.926922 38.6683 0.535711 0.535711 0.535711 2.06687 0.626701 25.6581 7.42925 0.368212 14.4903 6.70802 6.1181 7.29793 13.1951 6.20717 16.3873 21.0213 2.03805 28.9023 3.56984 3.56984 3.56984
1 22.0849 21.1148 23.055 NaN NaN NaN 44.7524 42.1275 47.3773 NaN NaN NaN 4.85432 0.213569 32.0517 NaN NaN NaN 10.565 9.50639 11.028 21.2238 21.2238 21.2238 10.8581 10.6961 15.2757 10.496 5.41734 18.0432 7.76987 0.423677 11.0607 11.3451 7.1674 15.5229 7.00029 1.7712 12.2294 15.5068 5.68213 33.4386 11.1385 4.93956 11.7448 NaN NaN NaN NaN NaN NaN
2 28.5998 28.5998 28.5998 20.2976 5.43377 41.9802 NaN NaN NaN NaN NaN NaN 7.79263 7.24854 8.33672 17.1587 7.8349 25.0127 17.3209 17.3209 17.3209 5.15226 1.40512 8.8994 23.176 16.7079 29.6441 16.6982 6.07315 19.6883 11.8991 5.39608 11.9974 7.64499 7.64499 7.64499 3.23795 1.00961 5.46629 22.0911 20.5646 35.6863 23.6677 23.6677 23.6677 NaN NaN NaN NaN NaN NaN
3 14.259 14.259 14.259 NaN NaN NaN NaN NaN NaN NaN NaN NaN 15.9375 5.25282 26.6221 5.19249 5.19249 5.19249 8.08624 4.0388 19.039 7.61177 3.98714 11.2364 21.1135 13.3789 24.6211 3.28069 1.93678 4.62459 17.2429 11.6392 22.8466 6.22024 6.22024 6.22024 10.3636 10.3636 10.3636 17.2046 12.6862 21.7229 7.86085 7.86085 7.86085 NaN NaN NaN NaN NaN NaN
4 21.5578 17.2578 25.8579 NaN NaN NaN NaN NaN NaN NaN NaN NaN 12.1331 12.1331 12.1331 17.6287 17.6287 17.6287 17.4503 10.225 24.6756 5.8896 4.28652 7.49268 16.2493 15.4948 17.0037 0.184591 0.0703419 22.1968 13.4459 13.4459 13.4459 15.5811 11.4861 19.676 0.919828 0.0570818 7.10761 13.0063 8.88197 17.1306 6.20379 5.81718 6.59041 NaN NaN NaN NaN NaN NaN
5 11.3058 9.95724 12.6543 NaN NaN NaN NaN NaN NaN NaN NaN NaN 5.99352 5.84625 6.1408 2.36886 2.36886 2.36886 6.86782 6.86782 6.86782 24.7552 20.5144 28.9961 9.49937 7.97104 17.2859 15.3167 10.6928 19.9405 2.76593 2.33692 3.19493 7.63338 4.39682 10.3105 0.326905 0.0900634 3.5078 28.0925 28.0925 28.0925 6.92877 6.92877 6.92877 NaN NaN NaN NaN NaN NaN
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
