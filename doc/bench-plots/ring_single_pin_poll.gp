# SPDX-License-Identifier: BSD-2-Clause
# ring_single_pin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_single_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 31.6499 25.0507 43.1466 15.6679 14.8067 16.8827 23.6216 20.4422 26.3817 69.8118 63.8434 85.0499 2.18627 1.87076 3.12814 5.97573 5.12811 7.14171 4.33128 4.14864 5.51585 6.07588 5.22745 6.68073 5.42922 4.84756 6.23923 4.48622 3.90447 4.80905 2.7434 2.69764 3.40103 48.0994 43.5325 55.701 1.04212 0.388539 5.3217 20.7453 14.2663 59.235
1 36.8099 31.8163 43.4994 NaN NaN NaN 20.4954 18.264 51.7579 NaN NaN NaN 2.36088 2.29066 2.79087 5.99232 5.63644 13.4481 5.58699 5.20777 6.04083 6.2543 5.83402 7.26676 5.23756 4.96681 6.14748 4.34796 3.92908 4.95462 2.63146 2.44774 16.2423 42.2443 25.1815 48.4871 3.60629 2.99394 6.21163 NaN NaN NaN
2 35.8003 31.7509 39.513 16.0037 14.3337 16.7062 NaN NaN NaN NaN NaN NaN 2.51744 2.18442 3.05123 5.76426 5.67108 7.5779 5.24436 4.50321 5.53609 6.51377 6.19009 6.82794 5.5747 4.03803 6.68946 4.71345 4.3985 4.73068 4.14934 3.79389 4.51678 50.6904 39.2684 51.5999 1.93149 0.888985 2.75472 NaN NaN NaN
3 17.3044 14.9053 20.8875 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.03707 1.74812 2.74166 7.86641 7.17052 7.96992 5.20585 4.7444 5.74676 6.20798 3.24758 7.37288 5.07656 5.03252 5.72068 4.4714 3.8004 7.49156 4.62057 4.39139 5.00419 48.5871 39.1755 55.9587 6.78134 4.21356 7.43558 NaN NaN NaN
4 30.2131 26.9224 37.5142 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.35474 2.22319 2.57085 0.226584 0.046777 0.79624 5.02622 4.25046 5.74014 0.159923 0.00173646 0.214524 4.63851 3.12604 5.46693 3.44887 2.99437 3.61264 1.81332 1.64724 1.99821 46.9709 38.4184 49.0513 6.52692 2.16111 8.16581 NaN NaN NaN
5 31.6301 26.0307 37.2994 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.55736 2.01636 3.91775 0.181636 0.0313115 0.410746 4.86561 3.66044 7.2126 0.122412 0.0366897 0.213887 2.54473 1.50857 3.48171 2.21229 1.21273 4.13368 1.23368 1.21512 1.32606 51.1825 44.1843 53.0555 5.76017 4.01527 8.66254 NaN NaN NaN
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
