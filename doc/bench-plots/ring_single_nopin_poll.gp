# SPDX-License-Identifier: BSD-2-Clause
# ring_single_nopin_poll.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot ring_single_nopin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_single_nopin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 40.1597 33.5248 44.2429 15.1703 14.3494 16.4959 21.175 19.2195 25.6254 96.6387 62.7907 97.9086 2.51438 1.9283 3.05112 6.25488 5.26839 35.5831 4.49915 4.29128 5.41295 5.42668 5.40766 7.05546 5.19858 4.75536 6.07473 4.20672 3.62614 5.3112 2.64546 2.59185 2.81349 48.8279 36.5005 50.129 1.44697 1.01293 2.77836 17.3327 16.8613 20.9975
1 39.7792 31.1869 44.163 NaN NaN NaN 20.1001 17.4254 25.1346 NaN NaN NaN 2.24843 2.06353 2.59315 6.23102 5.14327 35.9545 5.38528 4.83818 6.49074 5.06798 3.25935 6.88683 5.48855 4.80421 5.6842 3.90012 3.29009 3.92605 2.70332 2.30261 2.80021 44.4361 30.2651 50.3753 8.599 7.51465 10.6084 NaN NaN NaN
2 36.1122 29.2407 49.2006 15.2287 13.9793 16.978 NaN NaN NaN NaN NaN NaN 2.49238 2.20132 2.64164 5.54814 3.76881 6.05424 4.76075 4.30698 7.12845 6.1163 3.90796 6.68682 5.46553 5.03291 6.58629 4.41922 3.64432 4.6773 3.44435 3.12205 4.34946 39.7949 35.0622 47.5006 1.7366 0.738098 2.9622 NaN NaN NaN
3 34.2776 17.466 39.592 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.25423 1.97873 2.38367 6.80934 1.60713 6.96502 5.3774 5.11227 6.47052 2.34233 0.152337 4.37538 5.32471 4.40149 8.34312 3.77809 2.84584 3.91059 3.35434 2.30132 3.73311 48.954 32.7271 54.362 7.82805 6.09066 10.4562 NaN NaN NaN
4 31.5461 28.5218 60.5554 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.09354 2.02891 2.35481 0.0672685 0.043636 0.163524 4.8869 4.71431 5.04112 0.351624 0.0990917 0.413284 3.57471 2.94209 4.09742 2.48986 2.28999 3.24656 2.04033 1.76731 2.15883 49.4816 34.5973 51.131 8.31913 4.72083 12.7252 NaN NaN NaN
5 34.1597 32.2177 37.2143 NaN NaN NaN NaN NaN NaN NaN NaN NaN 2.46052 2.18622 16.4627 0.176176 0.0273618 0.324804 4.63567 3.66642 5.17761 0.0731949 0.0287015 0.128147 2.47278 1.67393 8.6746 1.33312 1.05941 2.17912 1.20305 0.996157 1.65214 45.464 38.1524 51.9471 6.47035 3.82284 8.51808 NaN NaN NaN
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
