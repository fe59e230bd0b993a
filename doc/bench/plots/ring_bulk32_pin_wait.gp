# SPDX-License-Identifier: BSD-2-Clause
# ring_bulk32_pin_wait.gp - drawn by bench/report.py from build/bench-results/quick; run: gnuplot ring_bulk32_pin_wait.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_bulk32_pin_wait.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 21.5084 21.5084 21.5084 14.7062 13.4521 15.9602 28.8482 21.5392 36.1571 13.9004 11.3776 16.4231 7.72373 6.51348 8.93399
1 15.0915 15.0915 15.0915 NaN NaN NaN 15.1761 14.1778 16.1744 NaN NaN NaN NaN NaN NaN
2 31.2283 30.799 31.6577 22.0312 21.051 23.0114 NaN NaN NaN NaN NaN NaN NaN NaN NaN
3 21.5929 21.3229 21.863 NaN NaN NaN NaN NaN NaN NaN NaN NaN 15.6197 13.922 17.3175
4 18.2681 10.8266 25.7095 NaN NaN NaN NaN NaN NaN NaN NaN NaN 14.084 7.39606 20.7719
EOD
set title "grain_ring against the other queues: batches of 32 (all-or-nothing enqueue, as-many-as-ready dequeue; ck_ring and wfcqueue loop single calls) (pin/wait)"
set ylabel 'million pairs/s, median, bars min–max, log scale'
set xlabel 'configuration: P producer and C consumer threads' offset 0,-1
set bmargin 5
set logscale y
set format y '%g'
set xtics ("1P1C\n2 threads" 0, "1P2C\n3 threads" 1, "2P1C\n3 threads" 2, "2P2C\n4 threads" 3, "4P4C\n8 threads" 4)
set xrange [-0.5:4.5]
set grid xtics lc rgb '#eeeeee'
set xtics add ('' 4.5)
set object 1 rect from 0.5, graph 0 to 4.5, graph 1 behind fc rgb '#f1e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed' at 4.5, graph 0.98 right offset -0.5,0 tc rgb '#a05050'
plot $d using ($1 + -0.280):2:3:4 with yerrorbars lw 2 pt 5 ps 1.1 lc rgb '#1a5fb4' title "grain MPMC", \
     $d using ($1 + -0.140):5:6:7 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#e66100' title "grain MPSC", \
     $d using ($1 + 0.000):8:9:10 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#26a269' title "grain SPMC", \
     $d using ($1 + 0.140):11:12:13 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#a51d2d' title "grain SPSC", \
     $d using ($1 + 0.280):14:15:16 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#613583' title "moody_blocking"
