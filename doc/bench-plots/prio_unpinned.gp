# SPDX-License-Identifier: BSD-2-Clause
# prio_unpinned.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_unpinned.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_unpinned.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 7.54925 5.22073 14.0356 9.27945 8.8168 14.6521 8.46986 4.20376 9.6045 7.00607 6.47372 9.84816 4.03847 3.0682 5.48798 3.28745 3.10565 4.64158 2.79898 2.22414 4.13903 2.01652 1.4256 3.23216
2 4.37438 2.90517 6.66064 7.26277 5.02963 9.64625 3.5221 3.06961 6.7451 4.40468 3.88314 6.78663 4.6849 4.15182 5.88275 5.60604 4.73748 6.23022 1.96942 1.43624 2.73429 1.95887 1.36696 3.48093
4 2.01731 1.58626 4.86699 3.93802 3.00403 4.83139 2.16861 1.2743 2.85106 2.68328 1.63249 3.8979 4.73418 3.8862 6.00892 5.16896 4.15787 5.72125 1.10793 0.813039 1.27823 0.5647 0.487701 1.00256
8 1.2429 1.02747 2.02687 2.10007 1.63899 3.43242 1.19316 0.922007 2.12561 1.58766 1.36843 2.20676 3.95607 3.18052 4.49073 4.10509 3.32846 5.40362 0.589722 0.416289 0.724872 0.359922 0.165027 0.562206
12 1.043 0.818338 1.91786 1.60895 0.889495 2.09238 0.785106 0.534152 1.43959 1.15685 1.00793 1.62929 3.05847 2.4491 4.60598 3.42538 2.17711 4.41189 0.472974 0.298573 0.619927 0.325537 0.293042 0.389708
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
