# SPDX-License-Identifier: BSD-2-Clause
# ring_single_pin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_single_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 35.8947 34.7514 41.7921 11.1728 7.72877 15.9933 28.1364 26.9893 45.2544 87.3329 64.5288 351.085 1.14405 1.04346 1.28972 2.49902 2.23692 2.98505 7.69658 1.77493 8.90731 2.41968 2.25078 3.71928 2.95669 2.82124 4.8017 2.52493 2.16211 3.43326 1.84368 1.78978 2.67231 66.9861 43.8313 70.8664 2.24859 1.20732 13.9398 12.4213 12.1366 14.9105
1 30.7439 29.9791 36.9587 NaN NaN NaN 43.0184 26.8452 44.8107 NaN NaN NaN 1.4586 1.15557 1.9307 3.11053 2.83197 3.73421 3.77223 3.53341 10.3834 2.56724 2.31294 2.8738 2.46263 2.14918 3.5813 2.63586 2.33058 3.26011 2.28534 1.84669 2.64064 59.3732 40.781 71.3922 7.11057 4.76186 8.7312 NaN NaN NaN
2 35.276 31.9842 41.247 10.2688 8.23195 14.8678 NaN NaN NaN NaN NaN NaN 1.4464 1.34998 4.64843 2.47343 2.20646 3.13203 5.18927 4.76155 7.49779 3.0806 2.21493 3.52301 2.99404 2.652 16.3972 2.45111 2.12656 8.82009 2.48124 2.4269 8.67657 50.7221 24.5711 62.527 3.08589 0.54672 3.60144 NaN NaN NaN
3 21.2016 8.83103 26.144 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.24337 1.0839 1.49157 3.87101 3.58873 14.1191 7.472 3.59495 11.0839 2.18094 1.71528 3.04989 5.43798 4.9104 11.6741 4.00207 3.87689 4.35002 2.43468 2.3704 2.77856 57.0801 50.2857 81.1183 5.40811 4.16886 15.0255 NaN NaN NaN
4 29.0905 17.9937 32.5249 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.50807 1.4774 1.80719 0.182369 0.0447782 1.07036 8.08822 7.22733 8.85487 0.0271163 0.0182674 0.226628 4.03495 2.76492 4.45793 1.93417 1.806 2.595 1.16313 0.887348 1.28261 57.3653 42.8813 61.8165 5.76156 4.15374 7.61662 NaN NaN NaN
5 29.6864 28.9109 49.0801 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.41821 1.26513 1.59544 0.0410425 0.0376266 0.453433 7.57961 2.47838 8.28903 0.063227 0.0243401 0.229917 1.81197 0.908858 2.39974 1.93499 0.728464 2.10802 0.678633 0.57879 0.721688 61.5699 56.5191 70.7705 7.96407 6.21707 9.04259 NaN NaN NaN
EOD
set title "grain_ring against the other queues: one token per call (pin/poll)"
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
