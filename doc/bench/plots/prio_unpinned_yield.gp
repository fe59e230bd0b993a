# SPDX-License-Identifier: BSD-2-Clause
# prio_unpinned_yield.gp - drawn by bench/report.py from build/bench-results/quick; run: gnuplot prio_unpinned_yield.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_unpinned_yield.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 7.6663 7.6663 7.6663 24.9877 7.43156 42.5437 33.1986 30.4338 35.9634 NaN NaN NaN 36.2413 32.7087 39.7739 2.12224 2.12224 2.12224 NaN NaN NaN 39.0816 38.4816 39.6816
2 18.9858 7.5508 30.4208 39.284 39.284 39.284 31.7265 31.7265 31.7265 42.2162 42.0544 42.378 3.39073 3.29496 3.4865 21.2311 1.23321 41.229 31.6076 31.6076 31.6076 4.99033 4.40585 5.5748
8 30.9132 30.4488 31.3776 17.9152 2.18625 33.6442 5.46417 5.00441 5.92392 17.5648 5.315 29.8146 2.59878 2.59878 2.59878 13.8278 1.01961 26.636 23.9862 23.9862 23.9862 4.69973 3.03092 6.36854
EOD
set title "grain_prio against a locked pfifo_fast, three bands: unpinned_yield (as unpinned, producers yield after a full band)"
set ylabel 'million items dequeued/s, median, bars min–max'
set xlabel "producers (threads = producers + 1 consumer), log scale"
set logscale x 2
set xtics ("1" 1, "2" 2, "8" 8)
set xrange [0.7692307692307692:10.4]
set yrange [0:*]
set object 1 rect from 1.4142135623730951, graph 0 to 10.4, graph 1 behind fc rgb '#f1e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed' at 10.4, graph 0.98 right offset -0.5,0 tc rgb '#a05050'
plot $d using 1:2:3:4 with yerrorlines lw 2.5 dt 1 pt 5 lc rgb '#1a5fb4' title "grain_prio, single", \
     $d using 1:5:6:7 with yerrorlines lw 2.5 dt 2 pt 5 lc rgb '#1a5fb4' title "grain_prio, burst32", \
     $d using 1:8:9:10 with yerrorlines lw 1.5 dt 1 pt 7 lc rgb '#e66100' title "grain_prio, 8 bands (bits), single", \
     $d using 1:11:12:13 with yerrorlines lw 1.5 dt 2 pt 7 lc rgb '#e66100' title "grain_prio, 8 bands (bits), burst32", \
     $d using 1:14:15:16 with yerrorlines lw 1.5 dt 1 pt 9 lc rgb '#26a269' title "spinlock baseline, single", \
     $d using 1:17:18:19 with yerrorlines lw 1.5 dt 2 pt 9 lc rgb '#26a269' title "spinlock baseline, burst32", \
     $d using 1:20:21:22 with yerrorlines lw 1.5 dt 1 pt 11 lc rgb '#a51d2d' title "mutex baseline, single", \
     $d using 1:23:24:25 with yerrorlines lw 1.5 dt 2 pt 11 lc rgb '#a51d2d' title "mutex baseline, burst32"
