# SPDX-License-Identifier: BSD-2-Clause
# prio_own_core_yield.gp - drawn by bench/report.py from build/bench-results; run: gnuplot prio_own_core_yield.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_own_core_yield.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 0.945596 0.945596 0.945596 2.76728 2.76728 2.76728 1.35654 0.676243 2.09637 0.933513 0.675494 1.19153 0.443993 0.28677 0.601216 NaN NaN NaN 0.736481 0.736481 0.736481 0.562193 0.34829 0.91347
2 1.45079 1.04364 1.85794 NaN NaN NaN 0.347236 0.347236 0.347236 0.515569 0.185396 0.66547 0.42542 0.42542 0.42542 0.527429 0.453546 0.601311 0.613057 0.519898 0.706216 1.00962 1.00962 1.00962
4 0.693937 0.536624 0.851251 0.795511 0.747487 0.843535 0.375605 0.364133 0.387077 0.430578 0.430578 0.430578 0.321081 0.203398 0.438765 0.120446 0.0962823 0.144609 0.401816 0.401816 0.401816 0.585607 0.523064 0.648149
8 0.391403 0.391403 0.391403 0.475949 0.475949 0.475949 0.341158 0.191758 0.490559 0.39462 0.237077 0.552162 0.34305 0.34305 0.34305 0.213787 0.148409 0.222182 0.276044 0.142654 0.409434 0.589881 0.502987 0.676775
12 0.604099 0.604099 0.604099 0.834651 0.48107 1.18823 0.348603 0.348603 0.348603 0.317785 0.317785 0.317785 0.309296 0.309296 0.309296 0.170469 0.154229 0.226688 0.246261 0.191366 0.301156 0.168425 0.10898 0.416915
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
