# SPDX-License-Identifier: BSD-2-Clause
# prio_own_core_yield.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_own_core_yield.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_own_core_yield.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 13.0834 10.6991 13.7532 10.3558 8.96813 11.3083 9.15889 8.81395 9.36926 7.29399 7.12157 7.52496 3.86905 3.43041 4.22936 3.94999 3.53414 4.57788 3.09786 1.74623 5.18928 1.41194 1.29067 1.82831
2 13.998 13.729 15.2152 10.5534 9.12071 12.4327 9.35018 8.78087 10.5979 7.35277 6.2772 7.61836 3.96084 3.73682 4.29637 3.73889 3.64947 3.94948 4.09191 1.84788 5.87076 2.22762 1.91109 2.37967
4 15.372 12.6236 16.1663 10.646 10.2713 11.3966 10.4802 9.41023 11.0587 7.31467 7.14054 7.60425 3.7782 2.89849 4.15578 3.84591 3.08714 4.05875 4.61409 1.78572 5.85995 1.57936 1.21894 2.0212
8 15.948 14.7606 17.2344 10.2932 7.04603 11.3426 10.8791 10.2792 12.3616 7.33476 6.0304 7.43685 3.93504 2.94202 4.56098 3.93612 2.98428 4.29496 3.69367 1.38047 6.76516 1.51405 1.23883 1.73031
12 16.7721 15.5797 18.3455 10.3776 9.02301 11.2838 10.9037 10.4553 11.3185 7.36083 7.19254 8.43073 3.6546 3.57232 4.20018 3.84688 3.46415 4.42556 2.59386 1.47522 5.23011 1.47721 1.43627 1.74183
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
