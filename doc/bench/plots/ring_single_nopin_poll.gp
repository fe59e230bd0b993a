# SPDX-License-Identifier: BSD-2-Clause
# ring_single_nopin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_single_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 33.9533 31.6868 38.7891 17.712 11.5259 18.4562 51.1689 42.6606 53.2995 96.016 94.9353 97.8087 1.19613 1.16442 1.37478 2.47426 2.45364 3.75935 6.22021 1.1506 8.77904 2.6146 2.52694 3.95631 2.54304 2.19997 2.77254 2.29314 2.26019 3.16845 2.48 2.25287 2.48731 75.3914 31.2139 81.1127 3.01758 0.268644 5.16727 23.3694 13.1145 24.6349
1 34.1987 31.5705 43.6383 NaN NaN NaN 43.463 42.3015 44.3318 NaN NaN NaN 1.20131 1.15774 1.33944 2.78175 2.53561 2.90094 6.14018 3.6546 8.4447 2.33826 1.62798 2.48272 2.49484 2.14341 2.74726 2.32663 1.90663 2.55961 2.33587 1.96877 2.35673 76.4467 37.9372 78.6428 9.76256 8.9084 11.2262 NaN NaN NaN
2 40.4418 39.0749 46.7546 17.266 15.5717 21.5168 NaN NaN NaN NaN NaN NaN 1.37045 1.16067 1.47301 2.5416 1.37508 3.08773 5.28803 2.32991 6.28702 2.42987 1.6526 3.52447 2.40845 1.88883 2.65604 2.30879 2.12397 2.66041 2.32527 2.1857 2.81763 67.6655 64.3585 84.4588 2.55933 1.45497 3.9017 NaN NaN NaN
3 39.5849 26.3345 44.7107 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.16251 1.08146 1.22251 3.47693 0.934779 3.63442 5.05107 2.34096 8.37175 0.0946313 0.0450936 0.579604 1.40852 1.29295 4.57506 3.22707 2.98148 4.05376 2.07126 1.82385 2.17493 79.5896 72.4468 83.7922 8.89137 5.46343 9.31676 NaN NaN NaN
4 29.1911 25.4876 37.3805 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.20794 1.13877 1.23757 0.102309 0.0374005 0.658552 8.83333 7.56162 9.12714 0.137209 0.0258589 0.355338 1.29277 0.929955 2.7521 2.83534 0.971531 3.35244 1.18031 0.900925 1.4011 65.5888 45.0534 79.5152 9.99244 4.80442 13.5007 NaN NaN NaN
5 32.9444 31.6362 34.3823 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.17419 1.11947 1.64052 0.0449793 0.0180727 0.0840413 5.25806 2.58183 9.12284 0.0282761 0.0226617 0.0989014 0.587134 0.35305 0.852613 0.657879 0.56657 1.82814 0.776064 0.717927 0.838427 76.6964 66.511 83.068 9.90898 6.09857 10.0557 NaN NaN NaN
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
