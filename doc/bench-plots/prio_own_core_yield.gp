# SPDX-License-Identifier: BSD-2-Clause
# prio_own_core_yield.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_own_core_yield.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_own_core_yield.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 12.8148 12.1681 28.2246 9.99667 9.69333 10.6237 9.1424 9.00092 18.8046 7.32383 6.77227 29.2811 3.96107 3.53003 18.7949 3.91529 3.79131 22.7713 2.94555 1.84693 4.69494 1.46692 1.38533 2.63504
2 13.8322 13.34 37.3965 10.2455 9.78648 32.8261 10.2665 9.62477 10.3965 7.51718 7.19436 21.3991 3.59359 3.51093 3.7814 3.83756 3.55102 19.9118 2.4374 2.08097 5.38351 2.94389 2.24121 6.34568
4 15.9353 14.9226 16.9198 10.1941 9.80876 10.7169 12.5694 11.2246 22.8514 7.54777 7.0447 9.552 3.87457 3.46504 32.8536 3.79031 3.69359 22.9582 2.4708 1.72947 10.6426 1.69595 1.55251 2.31559
8 15.8717 13.6752 17.0221 10.0571 9.54545 31.0029 12.0685 11.028 20.1319 7.42821 7.00946 7.66434 3.49594 3.37426 3.73499 3.66852 3.51321 4.9215 2.77635 1.67417 4.04032 1.60279 1.41293 2.68651
12 15.8141 15.3396 39.1121 10.0423 9.60951 31.7423 11.3818 10.9946 13.2704 7.28505 6.90831 7.56663 3.65034 3.41748 6.20287 3.69534 3.45801 4.64501 2.79077 1.97125 4.67748 1.53981 1.34753 2.13391
EOD
set title "grain_prio against a locked pfifo_fast, three bands: own_core_yield (as own_core, producers yield after a full band)"
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
