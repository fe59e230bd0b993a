# SPDX-License-Identifier: BSD-2-Clause
# ring_bulk32_pin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_bulk32_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_bulk32_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 181.736 158.824 197.176 173.752 2.24273 5.50341 15.6276 141.205 128.181 87.2204 2.99746 101.958 3.17779 192.663
1 189.155 NaN 189.109 NaN 2.32828 5.87771 50.5356 140.86 122.882 92.6948 2.87728 120.303 3.04627 NaN
2 176.1 166.171 NaN NaN 2.66589 5.83945 44.5487 144.832 124.693 90.2432 4.37895 114.519 2.13616 NaN
3 134.21 NaN NaN NaN 2.15484 7.53805 47.514 64.2833 129.199 86.367 5.1663 132.171 3.03352 NaN
4 165.88 NaN NaN NaN 2.24273 0.241117 48.9143 2.44513 95.539 76.4798 2.08536 121.649 1.9508 NaN
5 181.27 NaN NaN NaN 2.42902 0.665036 52.8777 1.34127 66.4773 52.6265 1.42072 125.78 4.35943 NaN
EOD
set title "grain_ring against the other queues: batches of 32 (all-or-nothing enqueue, as-many-as-ready dequeue; ck_ring and wfcqueue loop single calls) (pin/poll)"
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
