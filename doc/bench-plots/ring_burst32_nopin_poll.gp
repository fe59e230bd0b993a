# SPDX-License-Identifier: BSD-2-Clause
# ring_burst32_nopin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_burst32_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_burst32_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 205.958 166.123 192.823 173.524 154.274 140.067 97.9392 202.694
1 179.267 NaN 182.666 NaN 142.618 136.266 101.34 NaN
2 203.399 162.71 NaN NaN 135.107 138.109 92.7955 NaN
3 167.398 NaN NaN NaN 52.8084 100.677 94.7557 NaN
4 181.256 NaN NaN NaN 1.87102 93.0826 73.3163 NaN
5 177.162 NaN NaN NaN 2.41212 43.8491 43.9709 NaN
EOD
set title "grain_ring against the other queues: bursts of 32 (partial enqueue and dequeue) (nopin/poll)"
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
     $d using 1:6 with linespoints lw 1.5 dt 1 pt 5 ps 1.1 lc rgb '#613583' title "rte_ring", \
     $d using 1:7 with linespoints lw 1.5 dt 1 pt 7 ps 1.1 lc rgb '#986a44' title "rte_ring_hts", \
     $d using 1:8 with linespoints lw 1.5 dt 1 pt 9 ps 1.1 lc rgb '#5e5c64' title "rte_ring_rts", \
     $d using 1:9 with linespoints lw 1.5 dt 1 pt 11 ps 1.1 lc rgb '#c061cb' title "boost_spsc"
