# SPDX-License-Identifier: BSD-2-Clause
# prio_unpinned.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_unpinned.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_unpinned.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 15.8777 7.29703 18.1246 17.6725 14.4054 59.691 10.2206 8.69086 21.7487 9.05634 8.41873 22.4946 11.7064 9.37313 34.2296 9.32319 8.32987 46.616 5.49211 4.32692 6.1988 6.676 3.75908 7.42321
2 8.03191 6.75282 10.1167 10.774 7.49154 29.7136 7.03379 4.75475 11.0485 4.85785 4.13603 14.9527 9.77045 8.09998 17.2264 10.5684 9.35623 11.9332 4.58134 3.47045 6.5435 5.56713 0.924952 7.94697
4 5.59942 4.39889 7.45436 6.01391 3.16403 22.4019 4.09282 2.8764 9.68887 3.68996 2.26257 10.1154 10.0473 9.30002 11.8793 10.3542 8.48002 22.1357 1.91183 0.875393 3.19192 2.09897 1.23858 2.75851
8 2.92386 2.6678 9.74886 3.28897 2.88711 3.51216 2.18624 2.05186 2.44804 1.87186 0.948236 5.21259 5.67395 4.04968 7.39572 8.15283 6.49401 12.1732 0.682024 0.417477 0.92358 0.938431 0.689132 1.37314
12 2.20666 1.83994 5.91931 2.23174 1.70359 7.24025 1.60296 1.16064 3.00983 1.21272 1.11341 3.35577 4.13482 3.15491 5.46972 6.42682 5.29699 8.37027 0.446355 0.271636 0.828713 0.949114 0.569314 1.19725
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
