# SPDX-License-Identifier: BSD-2-Clause
# ring_bulk32_pin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_bulk32_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_bulk32_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 177.541 158.518 190.003 168.515 163.921 186.679 190.698 134.164 197.201 177.21 168.144 191.029 2.67515 2.40135 3.755 5.65302 4.93828 6.61112 36.7223 15.7482 41.5457 151.556 132.942 186.298 132.438 115.982 172.647 109.597 97.0762 128.637 3.13827 2.74362 3.86507 113.274 109.567 134.827 3.93381 2.06236 5.64998 215.133 185.162 225.94
1 180.033 132.85 191.269 NaN NaN NaN 167.022 143.533 196.076 NaN NaN NaN 2.28882 2.24345 2.71482 5.98561 5.32246 8.02323 50.2648 32.7791 58.7003 159.824 140.908 164.962 139.916 124.591 158.603 107.544 75.2977 122.318 2.87148 2.4934 4.78492 118.743 116.276 135.565 3.74137 1.48885 5.60031 NaN NaN NaN
2 172.395 148.709 181.335 166.603 156.132 179.765 NaN NaN NaN NaN NaN NaN 2.58624 2.44875 2.88504 6.2878 5.83571 32.7258 48.9438 41.6096 56.8576 150.326 138.628 156.049 144.666 142.399 169.79 101.106 80.9136 118.97 4.25306 3.74189 4.69151 146.03 110.333 175.072 2.40266 0.822541 3.48369 NaN NaN NaN
3 113.627 103.965 137.067 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.17556 1.92198 2.75198 7.79371 7.1984 8.28149 54.5397 45.5048 55.3255 79.6768 25.599 111.74 141.83 113.173 156.494 98.0749 86.9402 103.504 5.05749 4.96108 5.30722 118.422 115.679 121.589 3.29596 1.22739 34.1381 NaN NaN NaN
4 161.745 149.158 173.41 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.55419 2.14178 2.69036 0.280964 0.0725352 5.37198 48.6792 46.8391 55.5003 2.4415 0.607606 47.2445 117.252 82.2918 137.17 81.5093 67.4479 97.4118 1.94299 1.64843 2.21194 115.977 113.378 123.66 1.60006 0.523062 2.44897 NaN NaN NaN
5 164.261 153.285 185.429 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.20078 1.95716 2.40399 0.353337 0.0108231 3.43727 47.2691 29.3219 53.3938 3.05985 0.879199 5.30338 90.2353 45.3707 105.057 82.2624 42.4316 124.214 1.5267 1.29706 1.56267 118.293 105.922 130.381 6.59113 1.24622 7.78716 NaN NaN NaN
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
