# SPDX-License-Identifier: BSD-2-Clause
# htab_threads.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot htab_threads.gp
set terminal pngcairo size 1530,560 noenhanced font "sans,10"
set output "htab_threads.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$read90 << EOD
1 10.5379 5.85976 11.3208 10.1229 5.66852 12.1986 9.63874 6.65786 11.5502 6.60628 4.92431 9.50698 3.08243 1.56238 3.51486 8.17622 4.56934 8.61604 5.10653 4.71257 7.42128 7.17879 6.47602 10.0496
2 8.35292 5.68535 9.81017 14.0661 11.6075 16.9898 17.1638 12.0437 20.1742 12.1746 8.48773 17.0313 4.00053 2.54201 5.44224 9.12314 6.35078 9.34014 1.90543 1.12873 2.1055 17.6948 13.5996 17.9912
4 9.2892 7.6073 9.53858 15.7855 12.3119 19.967 17.0124 15.5319 19.899 11.7801 7.3097 16.7545 4.89997 2.46693 5.58209 8.87374 7.18174 10.4082 2.09751 1.76285 2.2578 12.9109 11.1954 17.2564
EOD
$mix50 << EOD
1 6.20475 3.21062 7.92624 4.93771 3.46153 6.54703 6.37275 3.62168 7.02863 4.13257 3.68804 6.00225 2.28323 1.26374 2.39775 3.90058 3.24989 5.36876 3.99207 3.68258 6.01975 7.8138 4.83614 8.14179
2 5.57165 3.48792 6.01066 10.735 6.60286 11.6719 7.82708 6.86688 10.3414 7.66921 5.91861 8.96835 3.46775 2.97888 3.58177 2.38793 1.76355 2.60788 1.40059 0.770939 1.7419 12.2256 11.3947 14.11
4 4.94193 3.48654 6.05499 9.4793 8.60244 11.0375 8.31924 6.6238 9.19543 6.08205 4.14966 6.82629 3.1038 2.02131 3.59714 2.45501 1.69298 3.21741 1.76824 1.33623 2.22354 13.4248 9.37233 13.7557
EOD
$churn << EOD
1 4.40513 3.05723 4.65173 3.49636 2.87713 4.08778 1.75276 1.11475 2.60472 1.72771 1.39315 2.4877 0.703635 0.554258 0.889838 2.92714 2.13729 3.01679 3.61114 1.95169 4.32528 4.51249 2.31937 4.87273
2 2.70953 2.19471 2.8957 3.69506 3.06763 4.056 1.53097 1.08522 2.30473 1.58148 1.20301 2.29511 0.831174 0.762393 0.971949 0.685291 0.643178 0.775666 0.861366 0.505645 1.71503 2.13567 1.89477 2.33893
4 2.68466 2.40963 3.25604 3.5933 3.30829 4.11868 1.5926 1.096 2.47702 1.31249 0.935809 1.37936 0.898088 0.797639 1.23895 0.940038 0.841517 1.05414 1.207 0.76623 1.41408 2.2081 1.89706 5.17078
EOD
set multiplot layout 1,3 margins 0.05, 0.7908496732026143, 0.12, 0.88 spacing 0.05, 0.1 title "grain_htab against the baselines and anchors: throughput by threads (1M-key universe, 500k entries)"
set xlabel "threads"
set logscale x 2
set xtics ("1" 1, "2" 2, "4" 4)
set xrange [0.7692307692307692:5.2]
set yrange [0:*]
set object 1 rect from 2.8284271247461903, graph 0 to 5.2, graph 1 behind fc rgb '#f1e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed' at 5.2, graph 0.98 right offset -0.5,0 tc rgb '#a05050'
set title "90% lookup, 5% insert, 5% remove"
set ylabel 'million operations/s, median, bars min–max'
unset key
plot $read90 using 1:2:3:4 with yerrorlines lw 2.5 pt 5 lc rgb '#1a5fb4' title "grain/1 (one stripe)", \
     $read90 using 1:5:6:7 with yerrorlines lw 2.5 pt 7 lc rgb '#e66100' title "grain/256", \
     $read90 using 1:8:9:10 with yerrorlines lw 2.5 pt 9 lc rgb '#26a269' title "grain-qsbr/256 (RCU lookups, qsbr)", \
     $read90 using 1:11:12:13 with yerrorlines lw 2.5 pt 11 lc rgb '#a51d2d' title "grain-rcu/256 (RCU lookups)", \
     $read90 using 1:14:15:16 with yerrorlines lw 1.5 pt 5 lc rgb '#613583' title "cds_lfht (liburcu)", \
     $read90 using 1:17:18:19 with yerrorlines lw 1.5 pt 7 lc rgb '#986a44' title "ck_ht (ConcurrencyKit)", \
     $read90 using 1:20:21:22 with yerrorlines lw 1.5 pt 9 lc rgb '#5e5c64' title "mutex baseline (1 lock)", \
     $read90 using 1:23:24:25 with yerrorlines lw 1.5 pt 11 lc rgb '#c061cb' title "striped baseline (256 spinlocks)"
set title "50% lookup, 25% insert, 25% remove"
unset ylabel
unset key
plot $mix50 using 1:2:3:4 with yerrorlines lw 2.5 pt 5 lc rgb '#1a5fb4' title "grain/1 (one stripe)", \
     $mix50 using 1:5:6:7 with yerrorlines lw 2.5 pt 7 lc rgb '#e66100' title "grain/256", \
     $mix50 using 1:8:9:10 with yerrorlines lw 2.5 pt 9 lc rgb '#26a269' title "grain-qsbr/256 (RCU lookups, qsbr)", \
     $mix50 using 1:11:12:13 with yerrorlines lw 2.5 pt 11 lc rgb '#a51d2d' title "grain-rcu/256 (RCU lookups)", \
     $mix50 using 1:14:15:16 with yerrorlines lw 1.5 pt 5 lc rgb '#613583' title "cds_lfht (liburcu)", \
     $mix50 using 1:17:18:19 with yerrorlines lw 1.5 pt 7 lc rgb '#986a44' title "ck_ht (ConcurrencyKit)", \
     $mix50 using 1:20:21:22 with yerrorlines lw 1.5 pt 9 lc rgb '#5e5c64' title "mutex baseline (1 lock)", \
     $mix50 using 1:23:24:25 with yerrorlines lw 1.5 pt 11 lc rgb '#c061cb' title "striped baseline (256 spinlocks)"
set title "churn: every op inserts into a full table and evicts"
unset ylabel
set key at screen 0.8008496732026144, 0.86 left top
plot $churn using 1:2:3:4 with yerrorlines lw 2.5 pt 5 lc rgb '#1a5fb4' title "grain/1 (one stripe)", \
     $churn using 1:5:6:7 with yerrorlines lw 2.5 pt 7 lc rgb '#e66100' title "grain/256", \
     $churn using 1:8:9:10 with yerrorlines lw 2.5 pt 9 lc rgb '#26a269' title "grain-qsbr/256 (RCU lookups, qsbr)", \
     $churn using 1:11:12:13 with yerrorlines lw 2.5 pt 11 lc rgb '#a51d2d' title "grain-rcu/256 (RCU lookups)", \
     $churn using 1:14:15:16 with yerrorlines lw 1.5 pt 5 lc rgb '#613583' title "cds_lfht (liburcu)", \
     $churn using 1:17:18:19 with yerrorlines lw 1.5 pt 7 lc rgb '#986a44' title "ck_ht (ConcurrencyKit)", \
     $churn using 1:20:21:22 with yerrorlines lw 1.5 pt 9 lc rgb '#5e5c64' title "mutex baseline (1 lock)", \
     $churn using 1:23:24:25 with yerrorlines lw 1.5 pt 11 lc rgb '#c061cb' title "striped baseline (256 spinlocks)"
unset multiplot
