# SPDX-License-Identifier: BSD-2-Clause
# prio_unpinned_yield.gp - drawn by bench/report.py from build/bench-results; run: gnuplot prio_unpinned_yield.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_unpinned_yield.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 8.69887 2.86744 10.9714 4.44525 1.50057 16.4409 NaN NaN NaN 0.592527 0.592527 0.592527 12.5184 5.48036 19.5565 19.3189 19.3189 19.3189 8.46023 0.453188 16.4673 9.53505 9.53505 9.53505
2 8.94096 8.94096 8.94096 5.17399 4.81943 5.52854 NaN NaN NaN 12.1829 12.1658 12.1999 15.3715 11.1991 26.6028 6.91452 3.53387 10.2952 7.01575 4.4143 9.6172 11.1126 5.31153 16.9136
4 15.1974 15.1974 15.1974 4.95503 4.95503 4.95503 NaN NaN NaN NaN NaN NaN 13.8918 7.18843 20.5952 NaN NaN NaN NaN NaN NaN 17.8129 17.8129 17.8129
8 11.048 8.41884 13.6773 8.36545 7.29059 9.44032 NaN NaN NaN 12.8645 12.8645 12.8645 6.33573 4.63642 11.7725 15.2275 14.122 17.5224 NaN NaN NaN NaN NaN NaN
12 7.52386 4.92361 10.1241 6.41495 2.89706 9.93283 10.4059 9.99066 10.8211 8.15236 8.15236 8.15236 7.44071 7.44071 7.44071 10.9388 4.2664 17.6112 9.14288 9.14288 9.14288 4.74526 3.09739 13.9405
EOD
set title "grain_prio against a locked pfifo_fast, three bands: unpinned_yield (as unpinned, producers yield after a full band)"
set ylabel 'million items dequeued/s, median, bars min–max'
set xlabel "producers (threads = producers + 1 consumer), log scale"
set logscale x 2
set xtics ("1" 1, "2" 2, "4" 4, "8" 8, "12" 12)
set xrange [0.7692307692307692:15.600000000000001]
set yrange [0:*]
set object 1 rect from 1.4142135623730951, graph 0 to 15.600000000000001, graph 1 behind fc rgb '#f1e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed' at 15.600000000000001, graph 0.98 right offset -0.5,0 tc rgb '#a05050'
plot $d using 1:2:3:4 with yerrorlines lw 2.5 dt 1 pt 5 lc rgb '#1a5fb4' title "grain_prio, single", \
     $d using 1:5:6:7 with yerrorlines lw 2.5 dt 2 pt 5 lc rgb '#1a5fb4' title "grain_prio, burst32", \
     $d using 1:8:9:10 with yerrorlines lw 1.5 dt 1 pt 7 lc rgb '#e66100' title "grain_prio, 8 bands (bits), single", \
     $d using 1:11:12:13 with yerrorlines lw 1.5 dt 2 pt 7 lc rgb '#e66100' title "grain_prio, 8 bands (bits), burst32", \
     $d using 1:14:15:16 with yerrorlines lw 1.5 dt 1 pt 9 lc rgb '#26a269' title "spinlock baseline, single", \
     $d using 1:17:18:19 with yerrorlines lw 1.5 dt 2 pt 9 lc rgb '#26a269' title "spinlock baseline, burst32", \
     $d using 1:20:21:22 with yerrorlines lw 1.5 dt 1 pt 11 lc rgb '#a51d2d' title "mutex baseline, single", \
     $d using 1:23:24:25 with yerrorlines lw 1.5 dt 2 pt 11 lc rgb '#a51d2d' title "mutex baseline, burst32"
