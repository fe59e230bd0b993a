# SPDX-License-Identifier: BSD-2-Clause
# prio_own_core.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_own_core.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_own_core.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 13.3056 11.7905 15.7015 20.0729 17.7812 61.6231 9.33383 8.85855 9.88752 8.88389 8.31028 9.48709 13.0423 11.4273 33.5433 9.30988 8.36843 45.8736 4.57562 3.83873 5.60421 4.30896 2.28713 8.44169
2 13.1675 10.6687 18.2907 15.3624 13.1403 46.3656 8.897 8.39812 9.39988 8.59303 7.96836 21.8827 11.2638 9.47314 34.0053 9.11297 8.07891 10.189 2.74737 1.80705 3.98661 5.48796 3.55384 7.9811
4 9.77645 7.98266 10.61 10.7021 9.37383 36.444 8.27117 7.01982 9.38303 7.65109 7.19549 8.33632 11.0532 9.69538 34.1297 9.1811 6.7358 9.92709 2.32289 1.33838 2.86199 3.81195 2.98741 7.41188
8 7.28416 6.39531 18.0584 8.21172 6.74719 29.798 6.84216 6.39314 8.49272 7.31635 6.03772 8.76733 10.6096 8.55126 26.3685 8.57971 7.53224 43.7453 2.0584 1.16349 4.95033 3.87671 2.6783 7.31946
12 6.653 5.12039 16.9269 6.16902 5.70173 7.36919 6.47776 3.94938 7.87197 6.27859 5.20297 7.89057 9.9368 8.58372 12.2194 8.10448 7.02349 9.97197 1.94902 1.24647 2.62862 4.50649 0.375301 5.75364
EOD
set title "grain_prio against a locked pfifo_fast, three bands: own_core (consumer alone on CPU 0, producers on CPU 1)"
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
