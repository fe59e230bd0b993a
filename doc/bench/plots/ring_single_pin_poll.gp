# SPDX-License-Identifier: BSD-2-Clause
# ring_single_pin_poll.gp - drawn by bench/report.py from build/bench-results; run: gnuplot ring_single_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 9.08681 8.42341 9.75021 1.11809 0.874929 1.36124 14.8803 12.3239 17.4368 3.93731 3.93731 3.93731 0.310053 0.298026 0.322079 0.805136 0.229819 1.38045 3.2456 1.00441 3.57697 1.25035 0.742889 2.28609 0.919965 0.381076 1.45885 0.880417 0.669935 1.0909 1.43119 1.43119 1.43119 0.820177 0.808383 1.39935 0.652646 0.357988 0.947303 15.0065 7.59733 22.4156 3.17297 2.83465 3.19593 1.89556 1.40484 2.71975 9.78727 9.78727 9.78727
1 34.1167 18.9592 49.2742 NaN NaN NaN 23.7123 16.7906 30.6339 NaN NaN NaN 8.70366 7.23673 10.1706 NaN NaN NaN 7.18405 7.18405 7.18405 18.9717 8.83387 27.3867 13.8238 12.9097 14.7379 14.1953 2.42998 25.9605 9.41003 8.55214 10.2679 6.98043 6.98043 6.98043 1.8449 1.74728 1.94251 13.4581 10.383 16.5333 16.3904 16.3904 16.3904 NaN NaN NaN NaN NaN NaN
2 18.7896 16.6109 20.9682 12.8689 9.81229 17.0733 NaN NaN NaN NaN NaN NaN 9.91881 7.20688 12.1256 26.349 26.349 26.349 12.7904 7.29163 13.5824 6.66286 0.868024 12.4577 20.1405 16.5038 29.4769 17.1966 1.87332 35.5152 7.18102 6.63803 9.78971 10.4437 8.85628 12.9679 5.4884 4.66473 6.31207 17.7559 16.4608 26.7611 9.18782 9.18782 9.18782 NaN NaN NaN NaN NaN NaN
3 27.1463 22.3905 36.6835 NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN NaN 13.3673 13.1814 13.9987 11.6095 10.5088 12.7103 8.92599 6.40551 11.4465 8.82617 6.64703 11.0053 14.4873 14.2034 14.7712 6.3053 6.3053 6.3053 NaN NaN NaN 8.12895 8.08334 8.17455 18.9189 15.4354 22.4023 7.30327 5.24444 9.36209 NaN NaN NaN NaN NaN NaN
4 18.3718 18.2767 20.2117 NaN NaN NaN NaN NaN NaN NaN NaN NaN 6.07488 3.77879 8.37097 2.58903 0.0518981 4.55218 5.47926 5.47926 5.47926 13.9503 13.9503 13.9503 11.1767 10.6407 11.7127 0.827874 0.193375 1.46237 6.52106 4.57396 8.46815 NaN NaN NaN 0.053958 0.0410528 0.0668631 16.5705 11.5136 22.18 6.39159 4.9617 7.48318 NaN NaN NaN NaN NaN NaN
5 15.7849 15.7849 15.7849 NaN NaN NaN NaN NaN NaN NaN NaN NaN 10.5536 5.78681 15.3205 1.23759 1.23759 1.23759 5.94622 3.54348 8.34896 10.2208 8.05942 12.3821 14.4309 14.4309 14.4309 0.106994 0.106994 0.106994 5.72371 1.96811 6.8917 3.23811 2.94003 3.5362 0.114677 0.0205631 0.224636 NaN NaN NaN 4.20894 3.33114 8.65717 NaN NaN NaN NaN NaN NaN
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
plot $d using ($1 + -0.329):2:3:4 with yerrorbars lw 2 pt 5 ps 1.1 lc rgb '#1a5fb4' title "grain MPMC", \
     $d using ($1 + -0.288):5:6:7 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#e66100' title "grain MPSC", \
     $d using ($1 + -0.247):8:9:10 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#26a269' title "grain SPMC", \
     $d using ($1 + -0.206):11:12:13 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#a51d2d' title "grain SPSC", \
     $d using ($1 + -0.165):14:15:16 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#613583' title "boost_queue", \
     $d using ($1 + -0.124):17:18:19 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#986a44' title "ck_ring", \
     $d using ($1 + -0.082):20:21:22 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#5e5c64' title "moody_queue", \
     $d using ($1 + -0.041):23:24:25 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#c061cb' title "moody_queue_tok", \
     $d using ($1 + 0.000):26:27:28 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#2ec27e' title "mutex", \
     $d using ($1 + 0.041):29:30:31 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#f5c211' title "rte_ring", \
     $d using ($1 + 0.082):32:33:34 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#1a5fb4' title "rte_ring_hts", \
     $d using ($1 + 0.124):35:36:37 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#e66100' title "rte_ring_rts", \
     $d using ($1 + 0.165):38:39:40 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#26a269' title "tbb_queue", \
     $d using ($1 + 0.206):41:42:43 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#a51d2d' title "twolock", \
     $d using ($1 + 0.247):44:45:46 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#613583' title "wfcqueue", \
     $d using ($1 + 0.288):47:48:49 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#986a44' title "boost_spsc", \
     $d using ($1 + 0.329):50:51:52 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#5e5c64' title "moody_rwq"
