# SPDX-License-Identifier: BSD-2-Clause
# prio_unpinned.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_unpinned.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_unpinned.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 15.8543 9.02407 49.4399 18.2124 14.1766 19.9434 9.14816 8.29137 9.89059 8.63715 7.12972 12.0621 12.3712 8.93056 33.7247 9.66725 8.6447 12.4076 5.05767 3.05993 6.47204 3.37703 1.72177 5.82901
2 8.25604 6.01789 10.9287 11.0688 6.11935 13.0348 6.39696 4.38148 10.8144 5.69991 3.51992 6.74717 9.31 8.16224 10.2393 10.971 8.21872 11.4493 3.28982 2.59285 5.87516 5.65107 1.19057 6.99137
4 5.1535 4.82612 6.51966 7.07367 6.13957 18.1295 4.05933 3.25045 4.55537 3.77391 2.67586 4.24273 9.98316 6.75885 19.1933 10.6766 8.90199 11.7616 0.967638 0.701743 2.66535 2.27812 1.23444 3.80735
8 2.92399 2.47982 3.40815 3.8206 3.41307 4.26341 1.97175 1.60276 2.30338 1.89358 1.33523 2.13808 5.46525 3.11657 9.48507 8.46571 6.27226 9.3561 0.569214 0.360317 0.934261 1.10068 0.791852 1.54106
12 2.15282 1.53446 2.51102 2.628 2.06588 8.5123 1.34346 1.07431 1.65479 1.42 1.19223 3.54763 3.94066 2.57762 4.94509 5.69143 5.2441 6.49695 0.38604 0.251217 0.909656 0.873714 0.654732 1.17928
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
