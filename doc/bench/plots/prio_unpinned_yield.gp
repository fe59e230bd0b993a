# SPDX-License-Identifier: BSD-2-Clause
# prio_unpinned_yield.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_unpinned_yield.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_unpinned_yield.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 13.1731 12.6468 13.6155 10.7234 9.07827 10.9137 9.3458 8.87871 9.87539 7.66044 7.36762 8.87472 3.9258 3.4966 4.37168 4.01717 3.89666 19.7973 3.57977 2.04877 6.00992 3.3409 1.40666 5.18971
2 13.2232 11.161 13.6734 10.679 10.1525 11.057 9.45035 9.06759 13.9192 7.9931 7.694 8.44639 4.25612 3.91476 4.71676 4.41097 4.14451 9.08864 4.04584 1.71949 4.98401 2.24306 1.74934 2.69891
4 13.9862 13.2093 14.4975 10.5343 10.0633 11.2823 10.1134 9.48239 10.7134 7.88002 7.44366 9.27977 4.37422 3.95632 5.52693 4.25228 4.08937 5.07831 3.15103 2.09364 5.79671 3.45361 2.0931 5.35344
8 15.5545 14.7673 17.1732 10.9984 10.4293 11.4748 10.9701 9.88291 12.379 7.64513 7.28393 7.82303 4.0951 3.71439 5.15732 4.14296 3.78715 4.95487 3.89093 2.38777 5.3738 2.39907 1.94924 2.71582
12 15.2982 11.8244 16.8675 11.076 10.251 11.8363 10.5773 9.92073 12.2398 7.7109 7.40252 8.21057 4.15376 3.78768 5.13855 4.06641 3.87349 4.23375 4.32255 2.26822 5.41426 2.06099 1.9592 2.72636
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
