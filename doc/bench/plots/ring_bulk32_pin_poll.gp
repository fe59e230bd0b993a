# SPDX-License-Identifier: BSD-2-Clause
# ring_bulk32_pin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_bulk32_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_bulk32_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 378.264 207.427 389.658 216.979 203.775 220.918 268.615 218.825 323.013 204.034 147.752 216.168 1.11663 1.08 1.18471 2.65312 2.44072 3.26214 37.7902 14.3123 51.3354 63.3378 61.9145 69.169 66.7993 59.4243 70.3327 64.79 58.682 67.5338 2.33021 2.31127 2.4266 179.03 102.244 186.596 3.40104 1.86515 7.33101 154.558 123.609 170.797
1 331.008 205.692 395.576 NaN NaN NaN 318.283 228.188 348.654 NaN NaN NaN 1.16861 1.13788 1.19644 3.07598 2.76407 3.46692 47.7069 13.7129 50.9344 67.5314 66.0833 72.2061 65.5788 65.0839 67.8789 64.063 62.5627 66.1683 2.41736 2.17385 2.8431 187.935 172.513 199.881 3.36859 1.30903 8.21884 NaN NaN NaN
2 318.445 213.317 382.659 201.1 187.584 211.245 NaN NaN NaN NaN NaN NaN 1.30409 1.24941 2.09093 2.87891 2.52727 3.15121 19.8788 15.8727 49.6374 66.5255 64.6517 75.4983 67.5366 64.7318 71.9579 61.6655 57.824 66.2031 2.80973 2.74924 3.03688 196.029 126.228 210.515 5.42904 4.35422 7.17647 NaN NaN NaN
3 135.12 127.852 160.393 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.18044 1.15585 1.36301 4.30856 4.08318 4.58585 51.4344 17.0923 53.7106 48.565 42.5472 54.4967 77.2899 64.7032 79.8452 68.645 61.0905 70.5311 2.22344 2.16834 2.56037 195.655 130.719 216.235 4.78626 2.56839 8.84764 NaN NaN NaN
4 231.411 186.321 285.18 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.26895 1.16429 1.67251 0.0498107 0.0153323 0.105962 47.1908 30.123 51.11 2.48138 1.75325 66.538 39.2923 32.9652 69.3792 43.2807 36.5868 61.461 1.37913 1.28442 1.48706 177.739 114.199 210.058 7.67992 4.96585 19.3447 NaN NaN NaN
5 328.442 252.315 373.168 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.22184 1.10449 1.48108 0.0382846 0.0195712 0.079464 48.8946 32.6673 52.1846 1.11743 0.58998 1.58022 17.8637 16.1196 64.3785 19.7523 18.2111 42.4311 0.746176 0.672399 0.802394 174.157 114.675 208.858 16.1263 2.62954 17.876 NaN NaN NaN
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
