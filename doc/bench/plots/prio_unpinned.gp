# SPDX-License-Identifier: BSD-2-Clause
# prio_unpinned.gp - drawn by bench/report.py from build/bench-results; run: gnuplot prio_unpinned.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_unpinned.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 0.751536 0.60785 1.56922 0.656635 0.594986 0.718283 0.974111 0.974111 0.974111 0.606639 0.434194 0.779084 0.326141 0.281713 0.37057 0.158901 0.158901 0.158901 0.462988 0.462988 0.462988 0.501562 0.335866 0.976498
2 NaN NaN NaN 0.957574 0.406122 1.65457 0.222928 0.159511 0.286344 NaN NaN NaN 0.195739 0.195739 0.195739 0.211254 0.129734 0.292775 0.231681 0.20526 0.258102 0.674538 0.393211 0.955864
4 0.36009 0.241943 0.478237 0.316438 0.316438 0.316438 0.234319 0.234319 0.234319 NaN NaN NaN 0.134107 0.0859035 0.182311 0.0510584 0.0510584 0.0510584 0.213952 0.212929 0.214974 0.213039 0.138971 0.276822
8 0.201901 0.201901 0.201901 0.0907083 0.0818889 0.53676 NaN NaN NaN 0.0879187 0.0710427 0.104795 0.0795737 0.0100869 0.149061 0.0202291 0.00986272 0.0305954 0.155829 0.0818137 0.229845 NaN NaN NaN
12 NaN NaN NaN 0.0606534 0.0606534 0.0606534 0.109917 0.109917 0.109917 0.11233 0.0613265 0.163334 0.0542621 3.21331e-06 0.108521 0.000105774 0.000104913 0.000106635 0.137593 0.107026 0.185818 0.256742 0.256742 0.256742
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
