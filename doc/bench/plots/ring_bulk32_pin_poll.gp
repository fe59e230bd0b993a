# SPDX-License-Identifier: BSD-2-Clause
# ring_bulk32_pin_poll.gp - drawn by bench/report.py from build/bench-results/quick; run: gnuplot ring_bulk32_pin_poll.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "ring_bulk32_pin_poll.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
0 26.6649 17.6616 35.6683 26.1943 14.2755 38.1131 37.4894 26.6169 48.3619 33.514 22.201 44.827 0.866317 0.728555 1.00408 2.23685 2.03954 2.43416 11.6038 11.6038 11.6038 12.0145 9.79566 14.2334 3.53243 3.53243 3.53243 26.5917 19.2236 33.9597 22.5988 19.7962 25.4013 31.3541 17.3564 45.3518 0.63949 0.479737 0.799244 21.0163 6.49252 35.5401 7.43646 7.20917 7.66376 15.6778 15.5737 15.7819 15.4472 13.9984 16.8961
1 50.084 33.9767 66.1912 NaN NaN NaN 49.3294 37.5524 61.1064 NaN NaN NaN 11.6804 7.37464 15.9862 36.2194 28.7986 43.6402 NaN NaN NaN NaN NaN NaN 45.2857 45.0114 45.56 46.5545 30.5918 62.5172 51.8111 44.8917 58.7304 46.5148 12.3943 80.6352 2.8985 2.22792 3.56909 47.2641 28.8303 65.698 17.9958 17.9958 17.9958 NaN NaN NaN NaN NaN NaN
2 80.1979 74.8835 85.5124 0 0 0 NaN NaN NaN NaN NaN NaN 24.5962 24.5962 24.5962 28.059 7.73761 48.3805 NaN NaN NaN NaN NaN NaN 55.7791 49.9528 61.6055 51.5448 51.5448 51.5448 49.7562 28.4732 71.0392 57.5192 57.5192 57.5192 11.8056 11.8056 11.8056 44.9587 33.8003 56.1172 14.7048 8.90584 20.5037 NaN NaN NaN NaN NaN NaN
3 61.1092 59.6218 62.5967 NaN NaN NaN NaN NaN NaN NaN NaN NaN 10.7183 7.20155 14.2351 9.25399 9.25399 9.25399 46.6353 44.9144 48.3562 21.4267 21.4267 21.4267 63.5453 58.0158 69.0748 37.9455 21.2846 54.6064 58.2506 47.59 68.9112 57.9703 38.9522 76.9883 10.3718 4.05879 16.6848 32.9375 30.9946 34.8804 19.7194 18.5029 20.9359 NaN NaN NaN NaN NaN NaN
4 55.1556 47.5722 62.739 NaN NaN NaN NaN NaN NaN NaN NaN NaN 12.9265 9.49765 16.3553 0.956422 0.956422 0.956422 32.2589 32.2589 32.2589 69.4528 61.1959 77.7098 38.1763 28.3642 47.9884 7.26695 6.84103 7.69287 25.7032 12.4627 38.9437 7.91293 7.91293 7.91293 0.275868 0.275868 0.275868 33.8953 32.1197 35.6709 10.1162 5.27115 14.9612 NaN NaN NaN NaN NaN NaN
EOD
set title "grain_ring against the other queues: batches of 32 (all-or-nothing enqueue, as-many-as-ready dequeue; ck_ring and wfcqueue loop single calls) (pin/poll)"
set ylabel 'million pairs/s, median, bars min–max, log scale'
set xlabel 'configuration: P producer and C consumer threads' offset 0,-1
set bmargin 5
set logscale y
set format y '%g'
set xtics ("1P1C\n2 threads" 0, "1P2C\n3 threads" 1, "2P1C\n3 threads" 2, "2P2C\n4 threads" 3, "4P4C\n8 threads" 4)
set xrange [-0.5:4.5]
set grid xtics lc rgb '#eeeeee'
set xtics add ('' 4.5)
set object 1 rect from 0.5, graph 0 to 4.5, graph 1 behind fc rgb '#f1e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed' at 4.5, graph 0.98 right offset -0.5,0 tc rgb '#a05050'
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
