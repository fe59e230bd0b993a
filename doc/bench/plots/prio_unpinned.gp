# SPDX-License-Identifier: BSD-2-Clause
# prio_unpinned.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_unpinned.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_unpinned.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 8.18732 7.31377 9.01839 11.0057 10.0337 12.7253 7.33247 5.50554 10.0757 7.5581 6.21784 8.07178 3.91265 3.5327 4.93209 4.04147 3.4454 4.1469 2.28576 1.73194 4.75817 1.33982 1.2555 1.80105
2 6.49004 3.92059 7.59101 7.17034 5.54019 8.69091 4.82807 3.20881 8.12827 4.49149 4.05544 5.90205 4.10866 3.7263 4.47973 4.09951 3.55716 4.37408 1.82891 1.12432 3.16168 1.53737 0.955268 3.88662
4 3.23803 2.61236 3.86938 3.74526 3.4719 4.02089 3.31508 1.7403 4.26178 2.97224 2.53663 3.29178 3.67395 3.24397 4.13428 3.71212 3.31986 5.33831 1.17441 1.01552 1.43601 0.69966 0.467317 0.754775
8 2.16498 1.97568 2.66872 2.42031 2.22033 2.87522 2.04634 1.343 3.10977 1.79394 1.40845 1.99823 3.21754 2.10777 4.65766 3.32664 2.82357 4.28538 0.67749 0.591018 0.832317 0.381344 0.192206 0.528284
12 1.54899 1.34442 1.99584 1.59123 1.44787 1.74822 1.49215 1.30753 1.71455 1.1705 0.984666 1.48035 2.15607 1.61007 2.94053 2.80803 1.40237 4.12958 0.443349 0.294985 0.698374 0.315587 0.211605 0.457718
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
