# SPDX-License-Identifier: BSD-2-Clause
# ring_bulk32_nopin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_bulk32_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_bulk32_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 182.362 170.198 193.562 162.243 2.28857 5.88858 21.951 139.627 131.196 102.688 2.9055 117.184 3.70731 192.74
1 192.161 NaN 198.258 NaN 2.3589 5.85567 41.2436 149.587 124.019 88.4733 2.80266 115.401 1.2368 NaN
2 177.782 163.087 NaN NaN 2.45446 4.33791 48.9262 128.536 133.666 94.601 3.77804 119.94 2.51631 NaN
3 155.693 NaN NaN NaN 2.59858 5.99766 50.1882 62.3061 102.069 87.559 3.1981 118.7 1.83804 NaN
4 172.46 NaN NaN NaN 2.40947 0.314098 50.7251 3.74629 93.3087 64.632 1.96949 115.585 4.21178 NaN
5 182.097 NaN NaN NaN 2.65657 0.243001 32.3289 7.2994 52.1272 47.3348 1.41166 113.071 8.3963 NaN
EOD
set title "grain_ring against the other queues: batches of 32 (all-or-nothing enqueue, as-many-as-ready dequeue; ck_ring and wfcqueue loop single calls) (nopin/poll)"
set ylabel 'million pairs/s (enqueue + dequeue), median, log scale'
set xlabel 'configuration: P producer and C consumer threads' offset 0,-1
set bmargin 5
set logscale y
set format y '%g'
set xtics ("1P1C\n2 threads" 0, "1P2C\n3 threads" 1, "2P1C\n3 threads" 2, "2P2C\n4 threads" 3, "4P4C\n8 threads" 4, "8P8C\n16 threads" 5)
set xrange [-0.4:5.4]
set object 1 rect from 0.5, graph 0 to 5.4, graph 1 behind fc rgb '#f1e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed' at 5.4, graph 0.98 right offset -0.5,0 tc rgb '#a05050'
plot $d using 1:2 with linespoints lw 2.5 dt 1 pt 5 ps 1.1 lc rgb '#1a5fb4' title "grain MPMC", \
     $d using 1:3 with linespoints lw 1.5 dt 2 pt 7 ps 1.1 lc rgb '#e66100' title "grain MPSC", \
     $d using 1:4 with linespoints lw 1.5 dt 2 pt 9 ps 1.1 lc rgb '#26a269' title "grain SPMC", \
     $d using 1:5 with linespoints lw 1.5 dt 2 pt 11 ps 1.1 lc rgb '#a51d2d' title "grain SPSC", \
     $d using 1:6 with linespoints lw 1.5 dt 1 pt 5 ps 1.1 lc rgb '#613583' title "boost_queue", \
     $d using 1:7 with linespoints lw 1.5 dt 1 pt 7 ps 1.1 lc rgb '#986a44' title "ck_ring", \
     $d using 1:8 with linespoints lw 1.5 dt 1 pt 9 ps 1.1 lc rgb '#5e5c64' title "mutex", \
     $d using 1:9 with linespoints lw 1.5 dt 1 pt 11 ps 1.1 lc rgb '#c061cb' title "rte_ring", \
     $d using 1:10 with linespoints lw 1.5 dt 1 pt 5 ps 1.1 lc rgb '#2ec27e' title "rte_ring_hts", \
     $d using 1:11 with linespoints lw 1.5 dt 1 pt 7 ps 1.1 lc rgb '#f5c211' title "rte_ring_rts", \
     $d using 1:12 with linespoints lw 1.5 dt 1 pt 9 ps 1.1 lc rgb '#1a5fb4' title "tbb_queue", \
     $d using 1:13 with linespoints lw 1.5 dt 1 pt 11 ps 1.1 lc rgb '#e66100' title "twolock", \
     $d using 1:14 with linespoints lw 1.5 dt 1 pt 5 ps 1.1 lc rgb '#26a269' title "wfcqueue", \
     $d using 1:15 with linespoints lw 1.5 dt 1 pt 7 ps 1.1 lc rgb '#a51d2d' title "boost_spsc"
