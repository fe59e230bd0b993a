# SPDX-License-Identifier: BSD-2-Clause
# prio_unpinned.gp - drawn by bench/report.py from build/bench-results/quick; run: gnuplot prio_unpinned.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_unpinned.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 NaN NaN NaN 0.613323 0.613323 0.613323 3.76395 0.551982 6.97592 2.43673 0.79737 4.07609 1.18107 0.613495 1.74864 2.0829 2.05058 2.11521 0.807463 0.736124 0.878801 0.797435 0.797272 0.797598
2 1.0555 0.536355 1.57465 2.60015 1.24697 3.95333 4.25419 4.25419 4.25419 NaN NaN NaN 1.50523 1.50523 1.50523 0.525523 0.368553 0.682493 3.00742 3.00742 3.00742 0.686817 0.67463 0.699005
8 2.58163 2.58163 2.58163 0.15164 0.146568 0.156712 0.885812 0.122617 1.64901 0.624704 0.514787 0.734621 1.9959e-05 1.99499e-05 1.99681e-05 0.000550973 0.000550768 0.000551178 0.23991 0.23991 0.23991 0.215117 0.157076 0.273157
EOD
set title "grain_prio against a locked pfifo_fast, three bands: unpinned (no pinning: the scheduler places every thread)"
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
