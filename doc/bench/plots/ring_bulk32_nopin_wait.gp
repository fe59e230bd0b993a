# SPDX-License-Identifier: BSD-2-Clause
# ring_bulk32_nopin_wait.gp - drawn by bench/report.py from build/bench-results; run: gnuplot ring_bulk32_nopin_wait.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_bulk32_nopin_wait.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 12.6582 11.9122 13.4041 10.5085 10.0384 12.4235 6.76971 2.92869 10.6107 10.1237 7.84643 12.401 1.87104 1.62051 2.12156
1 15.1671 15.1671 15.1671 NaN NaN NaN 15.1833 5.35925 15.7314 NaN NaN NaN 2.22642 1.76526 3.03085
2 7.20097 3.33253 11.0694 13.8077 6.33431 21.2811 NaN NaN NaN NaN NaN NaN 4.2963 3.52475 5.06785
3 6.76429 3.58063 9.94795 NaN NaN NaN NaN NaN NaN NaN NaN NaN 10.0969 2.0433 18.1505
4 17.019 17.019 17.019 NaN NaN NaN NaN NaN NaN NaN NaN NaN 17.055 17.055 17.055
5 15.3565 11.8411 15.8834 NaN NaN NaN NaN NaN NaN NaN NaN NaN 12.1691 12.1691 12.1691
EOD
set title "grain_ring against the other queues: batches of 32 (all-or-nothing enqueue, as-many-as-ready dequeue; ck_ring and wfcqueue loop single calls) (nopin/wait)"
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
plot $d using ($1 + -0.280):2:3:4 with yerrorbars lw 2 pt 5 ps 1.1 lc rgb '#1a5fb4' title "grain MPMC", \
     $d using ($1 + -0.140):5:6:7 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#e66100' title "grain MPSC", \
     $d using ($1 + 0.000):8:9:10 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#26a269' title "grain SPMC", \
     $d using ($1 + 0.140):11:12:13 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#a51d2d' title "grain SPSC", \
     $d using ($1 + 0.280):14:15:16 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#613583' title "moody_blocking"
