# SPDX-License-Identifier: BSD-2-Clause
# prio_unpinned.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_unpinned.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_unpinned.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 14.4894 7.10473 28.7329 10.2594 8.88852 34.5363 8.68325 5.59297 25.0036 7.71615 6.59673 23.0042 16.8849 3.09796 17.611 3.91322 3.11356 23.1214 4.04734 3.06879 4.52343 2.68524 1.38088 3.79749
2 5.78302 4.32629 20.6889 14.7755 5.26296 31.4748 4.24986 3.07583 12.7116 5.45389 3.9544 16.7013 5.78294 3.69225 17.9916 6.07251 4.23024 18.8272 1.8326 1.55886 2.1933 2.10871 1.10246 4.81648
4 2.72982 1.94633 11.1839 6.29234 3.03883 14.4616 2.40354 1.65366 8.2873 3.39241 2.06457 8.23073 4.80222 3.50005 16.5591 5.68886 3.8952 19.6772 1.49901 0.909297 2.17893 0.982406 0.544728 1.82078
8 3.09968 1.19717 6.27341 3.43294 1.71657 8.22041 1.7679 0.936377 6.19453 2.45645 1.53091 4.47585 3.83468 2.56189 14.6996 4.65873 3.42487 18.8115 0.65739 0.517035 0.861059 0.478947 0.18464 1.11198
12 3.89799 1.09543 5.00711 2.44799 1.38413 6.60233 0.863648 0.636527 3.02896 1.30821 0.818283 3.70465 3.77814 2.83873 13.7929 4.09323 3.49967 15.0994 0.478758 0.429759 0.564049 0.33301 0.187921 0.466046
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
