# SPDX-License-Identifier: BSD-2-Clause
# ring_bulk32_nopin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_bulk32_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_bulk32_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 163.949 150.291 195.422 168.511 128.861 174.929 181.885 168.542 200.869 172.395 171.207 182.359 2.1397 1.92831 2.47713 5.39567 4.9853 5.67355 22.8238 12.7231 51.6236 126.586 124.529 150.117 143.668 118.158 147.117 108.139 94.4785 116.53 2.69864 2.5981 3.2886 88.6202 83.6601 113.975 2.52501 0.913262 16.5497 219.906 166.622 922.836
1 165.893 145.756 191.235 NaN NaN NaN 169.367 156.375 190.379 NaN NaN NaN 2.24839 2.06286 2.60571 5.30702 5.15083 32.4476 46.1425 26.2333 55.6741 103.091 81.8162 156.586 136.797 121.779 150.881 92.9646 81.2042 115.955 2.83039 2.7862 3.14424 103.833 77.3423 109.728 1.42693 1.258 2.41241 NaN NaN NaN
2 166.62 140.886 178.471 152.773 141.961 167.671 NaN NaN NaN NaN NaN NaN 2.22856 1.96709 2.6572 5.76056 4.54444 6.62363 43.3954 42.1433 51.4784 126.172 85.1563 616.533 131.009 112.602 137.567 107.972 88.904 122.726 4.03565 3.24703 4.29217 110.047 101.527 120.891 1.95082 1.36353 2.5683 NaN NaN NaN
3 150.624 127.505 158.214 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.39896 1.91934 2.57225 3.32314 3.03012 7.24092 50.2978 25.9021 88.3722 9.84295 0.896459 70.4862 110.83 103.512 131.627 85.9861 77.8223 100.14 3.31721 2.45503 3.95169 122.469 111.744 124.93 1.47421 0.710998 2.99404 NaN NaN NaN
4 170.585 143.988 181.946 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.35952 2.05179 2.59959 0.27925 0.15861 1.31565 47.4376 35.4851 54.3532 4.7804 0.349951 6.12405 81.0564 80.5923 111.496 84.7351 71.5921 266.491 1.89666 1.72586 2.08009 98.8898 87.9457 122.654 1.48053 1.14693 1.64276 NaN NaN NaN
5 165.93 159.238 172.906 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.49109 2.23485 2.79945 0.210095 0.0507488 1.02261 51.9383 38.8427 57.4431 1.93626 0.361115 3.36181 66.2918 37.1713 91.2308 53.2392 31.5035 104.778 1.34182 1.17255 1.68899 102.654 92.5452 118.545 3.25944 0.796714 5.91451 NaN NaN NaN
EOD
set title "grain_ring against the other queues: batches of 32 (all-or-nothing enqueue, as-many-as-ready dequeue; ck_ring and wfcqueue loop single calls) (nopin/poll)"
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
