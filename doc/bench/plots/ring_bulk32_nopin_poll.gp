# SPDX-License-Identifier: BSD-2-Clause
# ring_bulk32_nopin_poll.gp - drawn by bench/report.py from build/bench-results; run: gnuplot ring_bulk32_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_bulk32_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 41.9118 41.9118 41.9118 33.6009 33.088 34.1139 22.087 19.1749 35.7583 17.011 17.011 17.011 16.9741 16.9741 16.9741 19.3511 0.935241 37.7669 23.4937 4.85178 44.6328 9.98975 6.9016 18.9952 37.8934 31.1825 44.0972 18.3138 11.6535 24.9742 53.287 50.7247 55.8493 40.3482 40.0917 40.6047 15.2863 0.314787 30.2578 42.4458 12.6254 72.2662 4.53223 4.14856 4.91591 37.9116 21.5685 39.5904 55.0834 55.0834 55.0834
1 42.6526 20.0692 65.2359 NaN NaN NaN 25.8054 25.8054 25.8054 NaN NaN NaN 14.9342 14.9342 14.9342 27.0062 9.50964 28.1556 29.0913 29.0913 29.0913 15.897 15.897 15.897 30.1203 30.1203 30.1203 16.608 12.1537 21.0623 75.9877 29.8467 83.9121 34.8933 18.2866 51.5001 4.14596 4.13575 4.15616 22.9542 22.9542 22.9542 18.0457 2.05644 34.035 NaN NaN NaN NaN NaN NaN
2 40.7055 40.7055 40.7055 51.3258 40.558 62.0936 NaN NaN NaN NaN NaN NaN 17.8732 8.00411 27.7423 7.40038 7.40038 7.40038 16.6008 13.3879 19.8136 NaN NaN NaN 33.1999 25.2734 49.7206 39.3326 37.1088 40.951 35.9913 33.5528 38.4298 28.3776 24.3789 72.6925 9.38945 9.38945 9.38945 27.6572 19.3089 36.0056 35.5175 35.5175 35.5175 NaN NaN NaN NaN NaN NaN
3 31.293 31.293 31.293 NaN NaN NaN NaN NaN NaN NaN NaN NaN 13.5256 9.21325 17.838 7.82663 7.82663 7.82663 28.6265 21.7206 35.5324 25.1341 5.05547 45.2127 NaN NaN NaN 30.6003 28.4856 36.9529 31.8167 31.8167 31.8167 20.2647 20.111 24.8935 5.91635 1.00476 10.828 30.6181 24.8772 36.359 8.78723 8.78723 8.78723 NaN NaN NaN NaN NaN NaN
4 41.4556 24.3763 58.5349 NaN NaN NaN NaN NaN NaN NaN NaN NaN 15.5447 7.88756 16.2917 NaN NaN NaN 31.4042 28.52 34.2883 NaN NaN NaN 36.9609 29.6775 44.2444 3.15767 1.11398 17.0569 14.7365 5.7632 23.7098 41.8852 41.8852 41.8852 5.19792 0.264551 10.1313 21.238 11.018 31.4581 11.7703 8.62521 14.0634 NaN NaN NaN NaN NaN NaN
5 15.5173 15.5173 15.5173 NaN NaN NaN NaN NaN NaN NaN NaN NaN 6.01407 6.01407 6.01407 0.162708 0.0647681 7.99297 45.1222 15.2367 75.0077 63.7243 45.4133 76.7739 35.3973 35.3973 35.3973 8.51051 5.90046 22.476 12.6194 11.6163 13.6226 10.9076 9.57572 36.9457 0.125311 0.125311 0.125311 29.0317 29.0317 29.0317 12.5734 7.63266 17.5141 NaN NaN NaN NaN NaN NaN
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
