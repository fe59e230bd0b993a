# SPDX-License-Identifier: BSD-2-Clause
# ring_bulk32.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_bulk32.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_bulk32.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 233.856 118.635 223.714 252.987 20.7864 96.1373 108.57 207.076 15.3448
1 104.05 NaN 207.42 NaN 8.58247 97.2185 275.72 194.552 22.3003
2 234.965 118.793 NaN NaN 13.9639 96.5638 331.333 223.514 70.7215
3 241.434 NaN NaN NaN 7.01247 93.3071 82.8657 144.761 78.009
4 106.68 NaN NaN NaN 0.232651 88.1339 0.544279 114.249 42.3786
EOD
set title "grain_ring against the other queues: batches of 32 (all-or-nothing enqueue, as-many-as-ready dequeue; ck_ring and wfcqueue loop single calls)"
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
