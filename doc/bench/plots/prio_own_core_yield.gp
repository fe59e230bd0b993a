# SPDX-License-Identifier: BSD-2-Clause
# prio_own_core_yield.gp - drawn by bench/report.py from build/bench-results/quick; run: gnuplot prio_own_core_yield.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_own_core_yield.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 4.76276 1.96697 7.55854 4.50752 3.66512 5.34992 3.74701 2.84563 4.64839 2.69762 1.65237 3.74288 0.899991 0.88222 0.917763 1.21742 1.21742 1.21742 2.17032 1.30979 3.03086 0.773463 0.677912 0.869013
2 4.93986 4.93986 4.93986 3.15061 3.08871 3.21251 2.83166 2.83166 2.83166 2.27787 0.678078 3.87767 2.09269 1.61061 2.57477 1.4188 1.16594 1.67167 4.86886 3.70473 6.03298 2.01454 1.18639 2.84268
8 6.71038 6.10668 7.31407 4.58783 1.83746 7.33819 4.12124 3.2725 4.96999 4.17414 4.10434 4.24395 1.72246 1.61434 1.83058 1.38153 0.671004 2.09205 3.33372 3.33372 3.33372 3.43309 1.0922 5.77397
EOD
set title "grain_prio against a locked pfifo_fast, three bands: own_core_yield (as own_core, producers yield after a full band)"
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
