# SPDX-License-Identifier: BSD-2-Clause
# ring_single_pin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_single_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 40.1875 35.3229 44.6042 16.7768 15.0865 17.6858 19.8843 18.9563 22.9981 81.2284 63.494 107.87 2.24755 2.09154 16.3212 5.75253 4.9221 6.36676 4.63934 3.83989 4.91786 5.87897 5.55527 6.64342 4.90838 4.18154 5.63458 4.38826 3.81285 4.77197 2.84097 2.67404 3.9985 47.9084 30.3053 54.0448 3.07464 1.12176 5.53452 17.9437 16.1466 22.7786
1 43.1639 35.5872 45.3903 NaN NaN NaN 19.9415 18.1198 20.6819 NaN NaN NaN 2.23172 2.13347 2.46553 5.66511 5.28793 5.89417 5.74116 5.62511 9.02757 6.7381 5.99596 7.18983 5.8878 5.12476 6.17896 3.97955 3.7485 5.20999 2.74759 2.66157 3.76894 45.4334 30.8457 53.2399 4.06344 2.99572 4.75827 NaN NaN NaN
2 43.7129 34.9267 51.3788 16.4808 15.2098 17.0183 NaN NaN NaN NaN NaN NaN 2.43132 2.31142 2.49098 5.75818 5.2839 6.03723 5.21945 4.85392 9.68785 7.0923 6.31906 8.96041 6.17362 5.41961 6.71814 4.79064 4.66036 5.39516 4.1765 3.916 5.14727 52.5585 51.0655 55.7508 2.64026 1.15027 4.7475 NaN NaN NaN
3 17.9038 12.105 21.8409 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.17422 2.13593 2.66849 8.01088 7.24535 8.24708 5.0721 3.95568 7.73781 6.74429 4.69656 7.71974 5.75416 5.33818 18.956 4.17373 3.7177 4.61963 4.97938 4.87178 5.07021 45.0472 35.7349 51.8221 7.50316 4.7146 8.43837 NaN NaN NaN
4 27.4839 25.1913 32.8531 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.54232 2.23826 3.04203 0.287269 0.0927129 1.63784 4.87113 2.84487 5.27533 0.0653732 0.00894408 0.473157 3.88947 3.02658 4.20189 3.19937 2.96175 5.0426 1.99151 1.68968 2.12785 51.0516 43.125 65.6247 8.98762 6.60123 12.9104 NaN NaN NaN
5 30.5385 24.8788 41.5108 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.23167 2.17574 2.77203 0.147951 0.0938852 0.325867 4.80315 4.39196 5.27862 0.0657777 0.0292835 0.48584 2.44794 1.14234 3.14165 2.08459 1.53305 2.665 1.40597 1.32663 1.57697 47.4828 35.4381 52.2816 6.19314 2.9337 9.04103 NaN NaN NaN
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
