# SPDX-License-Identifier: BSD-2-Clause
# ring_single_pin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_single_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 38.8181 19.1318 20.5068 76.4218 2.35529 5.37722 4.20776 5.78708 5.83883 3.97873 2.90379 42.0301 2.70804 18.416
1 32.9068 NaN 16.8633 NaN 2.3214 5.51935 6.59523 6.28399 5.28842 3.8918 3.07701 39.9485 3.83728 NaN
2 41.7379 19.9968 NaN NaN 2.33058 5.78389 4.9936 6.19836 6.08608 4.39846 4.27441 51.5817 3.13784 NaN
3 19.1002 NaN NaN NaN 1.96596 7.31782 5.19942 6.54222 5.21499 4.16902 4.94235 44.4383 5.00936 NaN
4 30.5153 NaN NaN NaN 2.19362 0.244405 4.58281 0.276867 4.54762 3.28312 1.84898 53.0231 9.11445 NaN
5 39.8214 NaN NaN NaN 2.49801 0.361975 4.2841 0.0812799 2.25119 1.87612 1.54276 48.1934 5.05334 NaN
EOD
set title "grain_ring against the other queues: one token per call (pin/poll)"
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
