# SPDX-License-Identifier: BSD-2-Clause
# prio_own_core.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_own_core.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_own_core.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 15.9387 14.0909 50.4032 16.6813 14.8256 59.9197 10.4442 9.87281 21.6826 8.71087 8.1295 11.0303 13.5684 11.2898 34.5351 9.85672 9.30438 46.6766 5.09984 4.05983 5.81311 5.07873 1.44811 7.43242
2 13.3865 12.2929 37.7922 13.215 11.4864 44.0517 9.71736 7.79318 20.2985 8.80391 7.84466 21.256 11.479 9.25352 34.8275 8.50095 7.86606 46.4762 2.83927 2.4612 3.32476 7.22012 6.09689 8.24965
4 9.96865 7.17633 27.5583 9.48376 8.91892 30.4586 8.20904 7.83387 18.5113 8.01816 7.09398 19.6376 11.7472 8.06949 34.1243 9.26564 8.30591 46.3472 2.33774 1.936 6.57683 3.57655 2.22249 5.08038
8 6.99015 6.45027 7.77553 6.49197 5.82483 24.5763 6.92608 6.05655 14.8451 6.8867 5.86029 13.5839 11.7045 9.27557 34.6102 8.08035 6.88338 9.29764 1.85117 1.13536 3.50829 4.0796 3.27007 5.13237
12 6.45984 4.85927 17.8187 5.73083 5.22885 8.67741 6.74166 5.29112 12.6584 6.64853 4.91034 10.9912 10.1146 8.99722 12.2075 7.91315 7.46734 44.884 2.32993 1.36305 4.80997 4.55163 2.92878 7.64228
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
