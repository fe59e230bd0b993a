# SPDX-License-Identifier: BSD-2-Clause
# ring_bulk32_pin_poll.gp - drawn by bench/report.py from build/bench-results; run: gnuplot ring_bulk32_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_bulk32_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 54.6676 24.0106 85.3246 13.6558 13.6558 13.6558 19.1094 14.8818 23.337 18.4149 13.2908 23.5389 0.453772 0.264979 0.642565 2.19471 2.19471 2.19471 11.1408 4.53092 16.8069 9.28919 6.55723 9.44646 8.09767 2.04061 14.1547 9.05401 9.05401 9.05401 11.685 8.65272 14.7173 30.0027 13.7868 46.2186 NaN NaN NaN 26.4879 26.4879 26.4879 1.83063 0.999705 2.66155 15.3766 14.1959 17.1369 4.25174 4.25174 4.25174
1 28.7807 23.4395 29.5115 NaN NaN NaN 26.4026 26.4026 26.4026 NaN NaN NaN 8.74986 8.27364 9.22609 12.8203 12.8203 12.8203 18.245 7.26717 19.7917 27.3793 20.032 28.2384 26.8295 21.405 38.7256 20.6347 19.028 30.6792 60.1796 47.0766 73.2826 28.2116 25.0711 40.1285 3.74408 3.50425 3.98391 27.1842 23.044 31.3244 NaN NaN NaN NaN NaN NaN NaN NaN NaN
2 36.542 32.5429 40.541 42.9181 40.4897 45.3465 NaN NaN NaN NaN NaN NaN NaN NaN NaN 25.1994 25.1994 25.1994 39.9705 36.1539 43.7872 36.841 23.9509 49.7311 57.3107 39.9832 74.6381 31.9403 20.8518 51.2241 37.7265 37.0945 45.4127 NaN NaN NaN 5.27703 4.81501 5.73906 12.0997 12.0997 12.0997 9.44023 9.44023 9.44023 NaN NaN NaN NaN NaN NaN
3 34.0011 29.0868 35.6982 NaN NaN NaN NaN NaN NaN NaN NaN NaN 7.06256 6.58989 7.53523 14.6846 14.4311 14.9381 25.9818 25.9818 25.9818 36.8627 30.457 43.2685 35.8627 35.8627 35.8627 66.9434 66.9434 66.9434 39.8419 39.8419 39.8419 41.7532 41.6914 56.5205 5.19507 4.05277 9.0109 17.768 15.5541 123.71 13.0688 8.21387 17.9237 NaN NaN NaN NaN NaN NaN
4 27.2527 26.487 75.5412 NaN NaN NaN NaN NaN NaN NaN NaN NaN 9.22691 8.92362 10.7524 0.468492 0.151643 0.78534 19.0904 19.0904 19.0904 34.5974 24.1194 45.0755 40.6923 31.205 56.7179 7.98785 4.89322 11.0825 38.712 32.1714 45.2525 NaN NaN NaN 0.141824 0.141824 0.141824 20.6862 18.3486 23.0239 6.56669 6.01615 11.7502 NaN NaN NaN NaN NaN NaN
5 37.1792 37.1792 37.1792 NaN NaN NaN NaN NaN NaN NaN NaN NaN 16.247 16.247 16.247 2.55704 2.55704 2.55704 12.8832 12.7561 13.0103 37.4888 30.6174 69.4415 19.371 19.371 19.371 1.53247 0.555955 3.73437 8.44773 5.73575 11.1597 15.77 9.35254 22.1874 0.163906 0.163906 0.163906 43.2906 37.4299 49.1512 5.59265 4.51248 10.1643 NaN NaN NaN NaN NaN NaN
EOD
set title "grain_ring against the other queues: batches of 32 (all-or-nothing enqueue, as-many-as-ready dequeue; ck_ring and wfcqueue loop single calls) (pin/poll)"
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
