# SPDX-License-Identifier: BSD-2-Clause
# prio_unpinned.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_unpinned.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_unpinned.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 23.581 11.1819 25.9772 17.2816 7.9295 27.4297 14.3888 6.24977 15.5425 4.16941 4.02939 15.7934 2.55939 2.4833 11.1043 2.61294 2.34963 11.9199 3.93719 2.53092 4.46515 2.27704 1.54368 3.79915
2 8.50944 5.57379 17.8396 14.992 4.41784 18.033 7.89081 4.29497 11.3223 8.0058 3.10395 12.5965 2.23015 1.25875 8.22966 1.89547 1.5334 8.92595 4.28781 1.86276 5.56414 4.58042 2.04743 6.34208
4 8.13398 3.97019 9.79542 4.13191 3.08987 10.9583 5.20219 2.72921 9.11332 2.23044 1.81972 7.26568 1.52131 1.08168 5.11216 2.54274 0.903404 9.46358 0.868993 0.380865 2.19184 2.82111 0.578308 4.10207
8 4.54758 2.04141 5.71181 1.9215 1.42103 5.74472 1.41367 1.15978 3.28115 3.06989 0.905039 3.47201 2.16456 0.513648 3.50383 2.09925 0.40924 4.79339 0.815076 0.257847 1.26768 1.12729 0.841159 1.49608
12 1.58374 1.38303 4.08178 3.26189 1.19132 3.90744 1.85291 0.747438 2.4707 2.28071 0.701862 2.83787 0.584234 0.316109 1.63622 1.05359 0.362072 1.59884 0.787091 0.153719 0.901085 0.885408 0.669511 1.14223
EOD
set title "grain_prio against a locked pfifo_fast, three bands: unpinned (no pinning: the scheduler places every thread)"
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
