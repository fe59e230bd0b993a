# SPDX-License-Identifier: BSD-2-Clause
# prio_unpinned_yield.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_unpinned_yield.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_unpinned_yield.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 12.5905 11.2414 33.9007 10.2003 9.91697 32.075 9.549 8.86067 19.6073 7.5553 6.9886 20.8611 3.6923 3.57876 17.0518 3.84028 3.50575 22.7262 3.19956 1.72661 4.28499 2.84444 1.40469 5.39819
2 12.6729 11.8974 31.9525 10.1569 10.0182 10.9928 9.91655 9.62198 18.7113 7.86388 7.4299 22.7393 4.30139 4.01727 4.58158 4.39431 4.12874 6.66806 3.61064 1.79711 4.64438 2.46932 1.97166 4.41005
4 14.3562 13.5831 34.4074 10.5251 9.99908 36.7838 10.5205 9.63217 22.142 7.95195 7.22891 21.6827 4.14884 3.91532 19.6607 4.48876 4.12334 21.6351 2.49173 1.85586 3.44447 4.15567 2.63879 6.60357
8 15.4378 13.8686 16.2846 10.494 9.89202 13.7278 12.4861 10.7876 22.8486 7.71859 6.99877 8.04812 4.12224 3.83962 4.31294 4.10826 3.80598 4.55834 2.53996 2.19152 4.34184 2.13444 1.93027 2.88261
12 15.8892 14.7019 40.7596 10.0909 9.91138 47.2401 12.1008 11.5556 23.1406 7.55399 7.1946 24.858 4.02931 3.74351 4.25102 4.02496 3.81062 4.65687 3.12217 2.15234 5.17408 2.03912 1.73877 2.71462
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
