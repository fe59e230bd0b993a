# SPDX-License-Identifier: BSD-2-Clause
# htab_threads.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot htab_threads.gp
set terminal pngcairo size 1530,560 noenhanced font "sans,10"
set output "htab_threads.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$read90 << EOD
1 11.3465 9.15416 14.8258 11.1907 9.14784 12.5634 10.2229 9.51768 12.9248 7.96378 7.40731 10.1667 2.41975 2.08091 4.23979 6.9221 5.31909 11.537 5.85068 4.23655 11.3015 7.59564 6.59582 14.4093
2 7.254 6.47208 10.0148 17.6709 6.79278 20.2322 18.8647 16.4053 23.9132 15.4486 12.6987 19.7935 5.12345 3.90967 7.57104 9.94679 8.77412 10.5441 3.56355 3.07157 4.33215 21.8876 18.8068 23.9667
4 7.70916 7.12584 11.6717 17.2405 14.5347 22.2026 21.1767 16.4463 26.5295 14.391 11.7312 18.8818 4.31498 3.93741 4.87682 10.7107 8.50199 11.7574 3.9322 2.56137 4.8789 20.6102 13.9543 29.7444
EOD
$mix50 << EOD
1 7.39526 5.96181 10.3528 6.97115 5.5953 9.41114 5.28186 5.03598 6.30352 5.04164 4.51098 5.4743 2.28355 1.70209 2.92888 5.29552 4.53361 7.6811 4.29871 3.5288 7.58645 6.19313 5.43945 8.68681
2 4.71606 4.29862 6.87239 13.125 9.56898 15.8208 8.64442 8.03822 10.0458 8.22498 7.27483 11.451 3.70773 3.40653 4.76384 3.23075 2.73398 4.17119 2.85721 2.63497 4.22145 16.4903 11.4089 21.235
4 5.6241 4.83668 7.0929 11.0461 9.96204 15.63 8.62626 7.7905 11.0508 8.07984 7.25597 9.39551 3.5883 3.19412 4.85277 3.95513 3.3672 5.42299 3.43033 2.36825 3.90019 13.394 11.3704 17.5049
EOD
$churn << EOD
1 3.63289 3.13411 4.83028 3.63612 3.07474 4.50434 1.82736 1.57875 2.03703 1.79336 1.60123 2.24379 0.974558 0.840686 1.12661 2.89807 2.23159 3.63257 3.50543 1.90766 5.31985 3.90051 2.10315 5.35176
2 2.61057 2.28124 3.65098 5.10703 4.52317 6.32059 2.27481 1.97991 2.40137 2.06861 2.04667 2.2546 1.41121 1.33681 1.59715 2.61416 1.9209 2.80495 2.40437 1.57116 2.80809 3.67499 3.22609 6.91369
4 3.56523 2.81974 4.19208 5.09547 4.55662 5.39479 2.13353 2.0073 3.17943 1.99482 1.65177 2.13332 1.3068 1.14445 1.34219 2.13671 1.85758 2.48839 2.09529 1.41024 2.37641 3.60117 3.23895 4.16658
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
