# SPDX-License-Identifier: BSD-2-Clause
# prio_own_core.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_own_core.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_own_core.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 7.35016 4.47803 27.4693 30.8447 8.97563 34.8044 9.24897 3.8406 18.6266 10.1168 7.31606 21.6386 4.10863 3.77061 17.0522 18.1679 3.30857 19.2388 3.84615 2.82194 5.68325 3.98278 1.44583 6.06137
2 7.78929 4.66584 26.663 10.7252 7.6737 24.6704 4.80309 4.42276 16.443 10.2103 6.34307 19.0612 16.1348 3.60703 17.0501 6.09915 3.63951 19.1159 3.65946 1.5897 4.77446 4.9124 2.07584 6.38281
4 7.65707 5.23101 20.0406 15.2497 6.26175 20.4925 6.01445 4.62145 14.7989 9.16938 6.23851 14.3761 4.02387 3.14615 17.3182 17.4927 3.76748 18.181 2.40213 1.63152 3.90637 1.06026 0.766961 5.87501
8 5.63337 4.94112 14.3349 7.46588 5.81944 15.3787 11.3591 4.52211 13.6044 10.398 6.25178 15.0063 7.04106 3.15106 16.9929 17.4973 3.60154 18.1118 3.85767 1.82624 5.36678 3.68388 1.43835 6.42806
12 5.265 4.07924 12.094 12.6209 5.14552 13.7619 8.17204 4.81043 10.1071 6.97012 4.33401 9.77461 4.71822 3.5186 16.7611 17.2374 3.16231 17.6623 3.29722 1.29273 4.73948 2.24577 1.1671 4.14877
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
