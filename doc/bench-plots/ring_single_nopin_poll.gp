# SPDX-License-Identifier: BSD-2-Clause
# ring_single_nopin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_single_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 39.7703 19.7747 20.3063 80.3726 2.22809 5.34332 3.96806 5.86013 5.74037 4.45833 2.94374 38.8155 3.10564 18.7221
1 41.1922 NaN 20.3656 NaN 2.5183 6.26936 6.19649 6.35334 5.43687 4.24108 2.7899 49.2048 8.24566 NaN
2 45.8904 19.0417 NaN NaN 2.55161 5.35648 5.27863 4.33126 5.8121 4.65573 4.17871 53.7348 1.69374 NaN
3 32.3513 NaN NaN NaN 2.10658 6.17495 5.18104 2.92183 4.19029 3.63989 3.12268 53.5793 8.33133 NaN
4 41.2486 NaN NaN NaN 2.28216 0.123112 5.21508 0.185108 3.66293 2.56282 2.05105 52.0597 10.8876 NaN
5 36.1729 NaN NaN NaN 2.54365 0.0427377 5.24977 0.0683001 2.48179 1.51069 1.45149 46.3389 6.47736 NaN
EOD
set title "grain_ring against the other queues: one token per call (nopin/poll)"
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
