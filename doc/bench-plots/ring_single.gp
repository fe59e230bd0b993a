# SPDX-License-Identifier: BSD-2-Clause
# ring_single.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_single.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 39.32 24.5898 26.8354 62.1689 5.57761 4.89766 5.8192 54.6068 3.02084
1 40.5711 NaN 25.5322 NaN 6.18974 5.06488 4.31892 51.6166 11.5158
2 38.112 23.7991 NaN NaN 5.21721 4.94017 5.4975 57.0484 6.68089
3 34.2957 NaN NaN NaN 1.59199 4.27477 1.17638 57.0755 11.0644
4 36.3639 NaN NaN NaN 0.0330061 3.63709 0.0594014 53.8868 8.3507
EOD
set title "grain_ring against the other queues: one token per call"
set ylabel 'million pairs/s (enqueue + dequeue), median, log scale'
set xlabel 'configuration: P producer and C consumer threads' offset 0,-1
set bmargin 5
set logscale y
set format y '%g'
set xtics ("1P1C\n2 threads" 0, "1P2C\n3 threads" 1, "2P1C\n3 threads" 2, "2P2C\n4 threads" 3, "4P4C\n8 threads" 4)
set xrange [-0.4:4.4]
set object 1 rect from 0.5, graph 0 to 4.4, graph 1 behind fc rgb '#f1e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed' at 4.4, graph 0.98 right offset -0.5,0 tc rgb '#a05050'
plot $d using 1:2 with linespoints lw 2.5 dt 1 pt 5 ps 1.1 lc rgb '#1a5fb4' title "grain MPMC", \
     $d using 1:3 with linespoints lw 1.5 dt 2 pt 7 ps 1.1 lc rgb '#e66100' title "grain MPSC", \
     $d using 1:4 with linespoints lw 1.5 dt 2 pt 9 ps 1.1 lc rgb '#26a269' title "grain SPMC", \
     $d using 1:5 with linespoints lw 1.5 dt 2 pt 11 ps 1.1 lc rgb '#a51d2d' title "grain SPSC", \
     $d using 1:6 with linespoints lw 1.5 dt 1 pt 5 ps 1.1 lc rgb '#613583' title "ck_ring", \
     $d using 1:7 with linespoints lw 1.5 dt 1 pt 7 ps 1.1 lc rgb '#986a44' title "mutex", \
     $d using 1:8 with linespoints lw 1.5 dt 1 pt 9 ps 1.1 lc rgb '#5e5c64' title "rte_ring", \
     $d using 1:9 with linespoints lw 1.5 dt 1 pt 11 ps 1.1 lc rgb '#c061cb' title "twolock", \
     $d using 1:10 with linespoints lw 1.5 dt 1 pt 5 ps 1.1 lc rgb '#2ec27e' title "wfcqueue"
