# SPDX-License-Identifier: BSD-2-Clause
# prio_unpinned.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_unpinned.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_unpinned.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 12.0551 8.3976 14.528 17.9926 16.2358 61.5328 9.40659 8.58469 16.129 8.32631 7.14948 9.20091 11.3908 10.5684 13.0015 9.40299 7.8817 10.3393 5.56711 4.28409 6.46425 3.51789 0.807645 7.54053
2 7.90778 4.73519 10.5822 9.92502 8.66992 11.373 6.07434 4.74185 7.48546 5.94046 3.31001 6.14832 10.0166 5.43491 10.4941 10.3948 9.65003 11.3296 4.32499 3.59846 4.54295 5.70776 3.86743 7.999
4 4.91362 4.38631 6.85299 6.64799 6.1725 7.77371 3.83224 3.09716 4.24313 3.59561 2.80898 4.44947 9.52277 6.31978 10.813 9.89163 9.14507 11.5983 0.914963 0.562866 1.18769 1.86187 0.911813 2.75328
8 2.84478 1.69199 3.37067 3.69468 3.10816 4.20589 2.18378 1.62372 5.04865 1.92492 1.69985 2.11552 6.00012 5.37102 8.5172 7.85625 6.5141 13.4559 0.703063 0.464453 0.849585 1.14639 0.634723 1.53312
12 2.04332 1.71807 2.39353 2.50007 2.14802 2.61813 1.29803 1.03649 2.78799 1.18726 0.975889 1.36565 3.53941 2.58404 4.66371 5.78887 4.91708 7.24383 0.506448 0.41582 0.848675 0.855864 0.771401 1.12546
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
