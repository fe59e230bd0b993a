# SPDX-License-Identifier: BSD-2-Clause
# ring_burst32_nopin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_burst32_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_burst32_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 169.725 88.3402 294.774 110.436 86.5267 300.13 255.089 199.597 348.723 332.809 201.718 405.661 345.037 100.821 400.517 284.063 71.167 328.312 255.649 78.5682 446.002 323.911 99.7208 356.393
1 236.289 162.761 305.483 NaN NaN NaN 215.695 127.13 330.301 NaN NaN NaN 274.981 122.133 392.638 84.2387 80.6835 354.291 207.064 112.523 367.825 NaN NaN NaN
2 112.721 103.857 266.723 342.973 90.3567 404.357 NaN NaN NaN NaN NaN NaN 106.873 76.9326 463.236 328.384 282.887 457.003 281.398 101.825 353.357 NaN NaN NaN
3 237.901 170.474 284.065 NaN NaN NaN NaN NaN NaN NaN NaN NaN 124.433 3.0594 150.351 247.353 214.494 292.363 231.469 141.252 239.26 NaN NaN NaN
4 242.518 104.649 280.712 NaN NaN NaN NaN NaN NaN NaN NaN NaN 15.4101 8.8151 22.1147 196.5 52.5688 222.382 215.555 54.9558 233.865 NaN NaN NaN
5 266.478 108.397 316.167 NaN NaN NaN NaN NaN NaN NaN NaN NaN 4.66034 1.40424 8.15578 144.184 37.1036 273.371 157.513 35.5524 184.274 NaN NaN NaN
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
