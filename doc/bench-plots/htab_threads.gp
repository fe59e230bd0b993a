# SPDX-License-Identifier: BSD-2-Clause
# htab_threads.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot htab_threads.gp
set terminal pngcairo size 1530,560 noenhanced font "sans,10"
set output "htab_threads.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$read90 << EOD
1 11.8407 8.34537 12.7764 11.0235 10.0674 12.429 11.3309 10.171 11.844 9.00433 6.48135 10.0802 3.94565 3.76683 4.52173 8.55194 7.59256 8.90079 7.70881 5.4066 9.2231 10.1509 6.82893 11.8425
2 11.0143 8.55489 12.1282 22.9548 17.373 26.8834 21.8924 18.7864 23.5933 19.1002 15.7678 21.4572 6.39841 5.99568 7.59595 15.5537 12.4772 16.6463 4.56772 3.43477 5.47977 24.9314 21.4035 28.155
4 10.707 8.87429 11.655 21.4915 17.8227 26.3204 20.6236 18.8235 21.8077 19.1296 17.0963 20.267 6.76997 6.49306 7.84446 13.3596 10.8734 14.9893 4.00566 3.1232 4.35223 25.6512 18.5899 29.1811
EOD
$mix50 << EOD
1 8.35207 7.71122 9.21107 8.11626 7.47304 8.5316 6.17038 5.01911 6.49758 5.82836 5.27578 5.99682 2.72181 2.0853 2.87694 6.48012 4.14681 6.50196 6.01921 3.90779 6.51096 8.7462 6.49011 9.50126
2 8.31044 6.49794 8.69037 15.5293 13.6044 16.6117 11.62 9.85134 12.5395 11.0606 8.82289 12.0756 4.6085 4.24612 5.10513 4.45363 4.01158 4.93597 3.06449 2.36613 4.55268 21.0267 18.0254 31.9947
4 8.21102 6.72656 8.98138 14.8319 12.3083 16.2588 10.4424 9.02005 11.549 9.54746 7.75366 11.4232 4.6556 4.19053 4.91976 4.40681 3.92196 5.04864 3.08813 2.44549 3.73843 15.975 13.9239 19.7173
EOD
$churn << EOD
1 3.58576 3.34991 3.86152 3.88906 3.45449 4.1853 1.97046 1.77736 2.06801 2.03114 1.81057 2.80232 1.13875 1.0772 1.22397 3.38888 2.24332 3.57018 5.58517 3.77108 6.49666 4.10568 3.40316 5.18473
2 3.31575 2.74487 3.86823 6.98049 6.30253 7.25005 3.09167 2.21265 3.38971 3.1494 2.11871 3.41119 1.76461 1.71032 2.01907 2.18782 1.37202 2.3817 2.42798 2.18419 3.5439 5.65535 3.91519 6.02359
4 3.50295 2.88829 3.90708 6.91116 6.708 7.74829 3.01134 2.15719 3.37399 2.78675 2.66421 3.0417 1.55978 1.22733 1.73865 1.9653 1.74607 2.3624 2.82291 2.46489 3.46182 5.88391 5.51214 7.01526
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
