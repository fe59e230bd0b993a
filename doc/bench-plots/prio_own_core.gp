# SPDX-License-Identifier: BSD-2-Clause
# prio_own_core.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_own_core.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_own_core.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 14.1429 12.182 17.8119 19.9812 18.4405 21.5851 9.29446 8.01102 11.179 8.32378 7.83421 8.92666 11.7922 10.3679 33.8612 10.0992 8.89054 43.986 5.17749 2.33605 7.1774 4.40414 0.620992 7.69568
2 13.2982 10.6305 33.6637 13.1854 11.6758 15.1077 8.66555 7.88897 19.7725 8.51936 6.74825 9.10359 11.9599 9.46465 13.3113 9.34744 8.44321 44.9284 2.59959 1.70797 4.86277 6.01175 4.68807 7.78823
4 9.59829 7.93731 10.8602 9.32752 8.15056 10.0915 7.73985 6.63106 19.4796 6.8551 5.95042 8.06009 10.9335 9.47594 12.86 8.5467 8.0813 44.6798 2.31294 1.81837 7.51092 3.1004 1.92396 3.87424
8 6.74915 5.85915 7.83616 6.95195 5.45446 8.56858 6.1407 5.44049 7.1505 6.11642 5.15509 16.8396 10.1568 8.58644 33.6022 8.8487 7.92951 44.0127 1.84324 1.14119 4.91216 3.43263 2.26491 5.4921
12 6.32656 5.03845 7.72138 5.70589 4.80098 13.9037 5.94511 5.3608 6.29626 5.32303 4.10936 13.8411 10.4353 8.8125 11.3425 8.12709 7.45901 8.88747 1.79448 1.16793 2.76308 2.92743 2.15874 5.60525
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
