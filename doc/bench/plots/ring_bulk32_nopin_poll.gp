# SPDX-License-Identifier: BSD-2-Clause
# ring_bulk32_nopin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_bulk32_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_bulk32_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 329.271 220.794 382.601 186.477 156.1 206.444 328.217 215.39 391.038 197.27 188.206 212.658 1.20099 1.11032 1.22827 2.72185 2.46341 3.05694 34.7398 13.3618 49.1694 65.627 63.6876 66.998 63.3458 60.5901 67.5908 63.9322 60.611 66.4521 2.32461 2.25273 2.56924 166.398 104.502 199.419 2.06874 1.85728 7.18118 160.251 158.893 169.743
1 344.065 231.014 391.292 NaN NaN NaN 325.194 213.576 380.241 NaN NaN NaN 1.21353 1.15965 1.90376 2.87965 2.49304 3.0692 49.426 14.736 51.3217 64.937 42.5457 68.4796 62.9082 60.1118 63.8036 60.6622 58.8296 63.715 2.47078 2.24458 2.50263 170.885 106.822 198.128 2.42001 1.77337 7.76535 NaN NaN NaN
2 320.195 253.113 380.532 204.362 198.961 216.898 NaN NaN NaN NaN NaN NaN 1.40625 1.35925 1.61918 2.59871 2.35227 2.66057 50.4118 20.4853 51.3179 48.6412 41.6969 71.4835 64.1811 61.4907 73.7084 61.9703 60.3925 67.6823 2.52602 2.31788 2.8196 172.576 151.259 202.563 4.4048 2.49275 8.21976 NaN NaN NaN
3 257.673 211.949 338.786 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.19103 1.11288 1.24637 3.57762 3.1333 3.69673 46.5235 17.4984 52.4205 33.4178 24.0363 38.8389 60.1509 53.7458 70.2767 55.3224 42.0989 55.6679 1.85353 1.64196 2.16181 190.734 185.52 205.691 3.32354 1.67719 6.80961 NaN NaN NaN
4 301.849 217.659 362.878 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.15367 1.08904 1.41749 0.0410341 0.0171163 0.689513 22.6143 16.0086 53.0032 1.76756 0.48371 2.71887 31.7634 28.9944 74.0805 31.711 24.0812 49.9297 1.33361 1.19423 1.55109 194.058 161.893 202.844 21.7011 12.8955 25.2079 NaN NaN NaN
5 365.852 314.617 383.196 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.30836 1.20405 1.35995 0.144095 0.0266097 0.209186 50.5513 16.6083 52.3687 1.40049 0.546636 3.51513 15.9668 13.29 17.1705 17.239 8.35735 23.1736 0.752742 0.697162 1.27207 172.024 102.41 198.994 17.7558 1.14372 19.3649 NaN NaN NaN
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
