# SPDX-License-Identifier: BSD-2-Clause
# ring_bulk32_pin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_bulk32_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_bulk32_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 348.078 167.782 357.451 106.162 58.2795 304.678 341.053 259.219 363.793 367.769 66.444 376.457 4.85053 4.74601 11.6686 12.7597 11.3101 13.7779 80.5888 72.661 95.4092 302.343 85.482 402.508 234.55 82.6761 608.05 168.398 84.4811 397.193 6.96988 1.99078 8.74899 135.294 92.5936 218.054 4.55448 3.13743 7.81425 326.369 138.325 450.47
1 285.557 180.738 389.795 NaN NaN NaN 164.003 161.37 361.481 NaN NaN NaN 4.66605 2.07237 6.40525 6.37118 4.56712 11.5923 37.7819 27.6344 96.5929 367.862 296.801 695.676 311.711 82.1616 360.741 96.1204 70.1285 354.479 2.63349 1.83136 7.70274 117.303 99.3152 136.822 3.10059 1.8108 9.59739 NaN NaN NaN
2 337.002 253.249 373.563 300.643 205.278 322.2 NaN NaN NaN NaN NaN NaN 5.57792 5.09515 6.16566 14.0855 12.962 15.8873 89.5434 35.7935 108.17 281.732 80.4942 419.059 374.738 303.542 399.909 266.857 252.663 341.775 9.44991 2.64948 10.0326 183.071 112.449 202.169 70.4969 19.6621 101.319 NaN NaN NaN
3 220.55 107.213 268.956 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.58592 1.48859 2.01352 15.4736 5.34515 16.6709 58.9609 33.3443 79.079 86.5826 46.7788 264.647 307.58 243.258 329.818 206.556 70.4215 283.481 8.78409 3.86846 9.6524 173.808 109.389 187.332 31.9876 18.7192 81.2191 NaN NaN NaN
4 220.621 197.132 351.549 NaN NaN NaN NaN NaN NaN NaN NaN NaN 4.94007 2.08193 5.48522 0.0658188 0.0406976 1.03382 84.8364 29.0282 98.5631 13.0364 2.26988 55.9482 257.979 52.198 426.921 175.947 63.1024 262.801 1.40386 1.37533 1.95033 134.716 114.536 184.361 16.8543 11.9829 52.0379 NaN NaN NaN
5 301.901 151.078 398.668 NaN NaN NaN NaN NaN NaN NaN NaN NaN 5.05079 2.46497 5.8601 0.209256 0.0292723 0.785711 67.1561 37.6761 91.2624 3.47273 1.47994 21.5191 140.936 31.1017 222.572 167.33 97.6032 197.753 1.02959 0.760902 1.23185 154.596 117.184 228.708 23.835 12.8226 74.8437 NaN NaN NaN
EOD
set title "grain_ring against the other queues: batches of 32 (all-or-nothing enqueue, as-many-as-ready dequeue; ck_ring and wfcqueue loop single calls) (pin/poll)"
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
plot $d using ($1 + -0.325):2:3:4 with yerrorbars lw 2 pt 5 ps 1.1 lc rgb '#1a5fb4' title "grain MPMC", \
     $d using ($1 + -0.275):5:6:7 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#e66100' title "grain MPSC", \
     $d using ($1 + -0.225):8:9:10 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#26a269' title "grain SPMC", \
     $d using ($1 + -0.175):11:12:13 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#a51d2d' title "grain SPSC", \
     $d using ($1 + -0.125):14:15:16 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#613583' title "boost_queue", \
     $d using ($1 + -0.075):17:18:19 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#986a44' title "ck_ring", \
     $d using ($1 + -0.025):20:21:22 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#5e5c64' title "mutex", \
     $d using ($1 + 0.025):23:24:25 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#c061cb' title "rte_ring", \
     $d using ($1 + 0.075):26:27:28 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#2ec27e' title "rte_ring_hts", \
     $d using ($1 + 0.125):29:30:31 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#f5c211' title "rte_ring_rts", \
     $d using ($1 + 0.175):32:33:34 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#1a5fb4' title "tbb_queue", \
     $d using ($1 + 0.225):35:36:37 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#e66100' title "twolock", \
     $d using ($1 + 0.275):38:39:40 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#26a269' title "wfcqueue", \
     $d using ($1 + 0.325):41:42:43 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#a51d2d' title "boost_spsc"
