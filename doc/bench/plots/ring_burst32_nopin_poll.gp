# SPDX-License-Identifier: BSD-2-Clause
# ring_burst32_nopin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_burst32_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_burst32_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 271.761 266.349 319.775 209.754 193.062 210.292 323.934 237.526 394.935 200.57 148.346 204.841 67.0527 64.3391 71.1147 66.0107 60.3886 69.9612 62.8827 60.624 64.5912 162.745 137.726 173.383
1 346.883 256.4 375.652 NaN NaN NaN 356.573 252.563 376.715 NaN NaN NaN 53.1414 29.8933 67.5574 64.0247 61.7645 69.1262 63.0572 60.0708 64.0619 NaN NaN NaN
2 305.305 257.056 388.557 206.208 195.334 218.238 NaN NaN NaN NaN NaN NaN 63.5857 46.3641 64.6073 66.5126 58.4924 76.9835 61.6065 58.0883 64.3068 NaN NaN NaN
3 229.78 192.395 259.33 NaN NaN NaN NaN NaN NaN NaN NaN NaN 23.8081 1.21917 40.1994 54.3968 36.2557 73.1014 49.2367 39.849 59.0727 NaN NaN NaN
4 334.846 196.105 397.124 NaN NaN NaN NaN NaN NaN NaN NaN NaN 0.914981 0.179514 4.30506 34.9562 23.3044 67.6999 32.2566 26.6706 49.0415 NaN NaN NaN
5 317.902 280.834 376.06 NaN NaN NaN NaN NaN NaN NaN NaN NaN 1.0902 0.86178 3.86739 23.9167 13.86 28.433 15.735 12.1837 19.4584 NaN NaN NaN
EOD
set title "grain_ring against the other queues: bursts of 32 (partial enqueue and dequeue) (nopin/poll)"
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
plot $d using ($1 + -0.306):2:3:4 with yerrorbars lw 2 pt 5 ps 1.1 lc rgb '#1a5fb4' title "grain MPMC", \
     $d using ($1 + -0.219):5:6:7 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#e66100' title "grain MPSC", \
     $d using ($1 + -0.131):8:9:10 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#26a269' title "grain SPMC", \
     $d using ($1 + -0.044):11:12:13 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#a51d2d' title "grain SPSC", \
     $d using ($1 + 0.044):14:15:16 with yerrorbars lw 1 pt 5 ps 1.1 lc rgb '#613583' title "rte_ring", \
     $d using ($1 + 0.131):17:18:19 with yerrorbars lw 1 pt 7 ps 1.1 lc rgb '#986a44' title "rte_ring_hts", \
     $d using ($1 + 0.219):20:21:22 with yerrorbars lw 1 pt 9 ps 1.1 lc rgb '#5e5c64' title "rte_ring_rts", \
     $d using ($1 + 0.306):23:24:25 with yerrorbars lw 1 pt 11 ps 1.1 lc rgb '#c061cb' title "boost_spsc"
