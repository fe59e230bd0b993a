# SPDX-License-Identifier: BSD-2-Clause
# prio_own_core.gp - drawn by bench/report.py from build/bench-results; run: gnuplot prio_own_core.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_own_core.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 2.29006 1.99273 2.58739 1.21476 1.21476 1.21476 0.957931 0.957931 0.957931 0.585286 0.390431 0.780141 0.573403 0.203597 0.943208 0.339947 0.254414 0.425479 0.207812 0.159907 0.255717 0.248564 0.248564 0.248564
2 1.20174 1.20174 1.20174 0.547121 0.470973 0.783538 0.82128 0.378427 1.26413 0.428629 0.428629 0.428629 0.716595 0.716595 0.716595 0.340673 0.294798 0.386548 0.230848 0.230848 0.230848 0.909067 0.909067 0.909067
4 0.578011 0.353125 1.47903 0.51797 0.447766 0.580507 0.806296 0.484947 0.83603 0.317253 0.317253 0.317253 0.363979 0.363979 0.363979 0.269073 0.269073 0.269073 0.138905 0.138905 0.138905 0.396309 0.155532 0.637087
8 0.592468 0.315703 0.869233 0.522417 0.522417 0.522417 NaN NaN NaN 0.361094 0.274518 0.447671 0.279514 0.185464 0.323482 0.171107 0.171107 0.171107 0.169534 0.169534 0.169534 0.153102 0.153102 0.153102
12 0.422199 0.278918 0.56548 0.217055 0.217055 0.217055 0.444571 0.33755 0.551592 0.293112 0.293112 0.293112 0.177801 0.167468 0.188133 0.0930968 0.0800665 0.106127 0.195286 0.055667 0.334906 0.183929 0.183929 0.183929
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
