# SPDX-License-Identifier: BSD-2-Clause
# ring_single_nopin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_single_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 35.08 30.6789 38.9741 16.1185 15.5682 16.9985 47.4703 32.2608 51.1745 63.2115 59.6763 91.5461 1.06217 0.981616 1.27737 2.51258 2.2628 2.68479 4.87139 4.22586 9.34961 2.87743 2.42311 19.4383 2.47005 2.09912 15.6758 2.30431 2.13798 2.36395 1.8532 1.7785 2.32356 52.0841 36.7133 60.9111 0.601725 0.179742 12.1062 12.1917 10.9963 14.0441
1 36.5876 31.6512 41.145 NaN NaN NaN 41.6147 38.6119 49.3271 NaN NaN NaN 1.11155 1.00276 1.42985 2.51883 2.40541 2.68846 7.02115 3.75543 13.2632 1.8409 1.66755 2.89018 3.00448 2.25877 13.21 2.44711 2.14896 4.18153 1.98855 1.79792 5.78551 69.6311 42.3484 99.3406 8.02349 6.71934 10.1622 NaN NaN NaN
2 37.5012 33.665 41.2601 15.7299 10.5113 48.5567 NaN NaN NaN NaN NaN NaN 1.38752 1.3286 1.59239 2.09638 1.8092 2.51002 7.50111 4.66823 14.2367 2.5267 1.97915 3.3624 2.95401 2.47678 3.02589 2.45273 2.12224 3.24172 2.19995 2.12043 2.8823 63.5731 59.3154 70.3145 3.65742 0.651352 7.52704 NaN NaN NaN
3 34.7616 20.0903 40.8169 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.2728 1.1885 1.38778 3.32731 3.0758 3.65142 7.43284 5.27768 8.4387 1.05528 0.0262805 1.62358 3.30124 1.42222 4.43087 2.47072 1.4712 3.9601 1.94306 1.49414 2.06072 61.7064 45.6412 69.2558 9.57969 5.68054 15.7669 NaN NaN NaN
4 30.6587 19.7066 33.5975 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.31882 1.09834 4.51242 0.210836 0.0411061 0.293361 7.21867 4.70842 9.03003 0.0430865 0.00795501 0.0839086 1.95017 1.25132 3.10517 2.48913 1.16805 2.81789 1.05006 0.683974 1.32694 53.4641 50.5371 67.0108 7.09242 5.55171 11.6083 NaN NaN NaN
5 30.1718 29.1101 37.2736 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.80181 1.25744 1.98062 0.0370824 0.0218334 0.0774449 7.37717 4.34816 8.79094 0.0389377 0.0202704 0.0502613 0.663652 0.412956 1.62497 1.2816 0.611519 2.70476 0.569333 0.515852 0.688172 69.8111 56.1427 75.4417 8.99666 6.09541 9.69435 NaN NaN NaN
EOD
set title "grain_ring against the other queues: one token per call (nopin/poll)"
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
