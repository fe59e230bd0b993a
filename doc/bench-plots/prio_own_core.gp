# SPDX-License-Identifier: BSD-2-Clause
# prio_own_core.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_own_core.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_own_core.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 6.78699 4.55903 7.79969 9.84456 9.42881 30.8175 5.53489 5.17944 6.3816 7.42728 6.94951 9.71198 3.82864 3.52944 4.2632 3.94855 3.59877 20.2643 2.05881 1.55352 4.19795 1.46336 1.39653 1.6072
2 7.83272 7.05185 8.72165 9.05855 8.64112 28.0904 5.2067 4.56522 17.8789 7.14912 6.6604 18.5583 4.01233 3.49677 17.5394 3.74608 3.38794 22.7673 2.38337 1.45233 4.07195 3.09374 2.20697 3.67164
4 7.79501 5.96226 20.0537 8.0985 7.61762 22.5227 5.31725 4.99442 13.8908 6.74365 6.47242 15.8372 3.67144 3.4333 4.80188 3.75932 3.48398 3.92357 2.48481 1.8931 5.0568 0.502017 0.29983 0.698427
8 6.84247 6.44873 20.3037 6.117 5.34158 19.221 5.40868 4.84481 6.03428 6.12555 5.30927 12.3919 3.58174 3.38569 3.9209 3.73079 3.53523 3.83301 2.44644 1.42422 6.51655 1.54241 1.32154 5.48828
12 5.75099 5.10358 15.2038 5.11178 4.35936 6.64496 5.13841 4.69205 11.5852 5.75283 4.98157 13.372 3.70775 3.3582 13.2783 3.83385 3.62279 22.4567 2.46549 1.55982 5.2811 1.3689 0.797493 2.15449
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
