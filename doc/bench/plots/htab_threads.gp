# SPDX-License-Identifier: BSD-2-Clause
# htab_threads.gp - drawn by bench/report.py from build/bench-results/quick; run: gnuplot htab_threads.gp
set terminal pngcairo size 1130,560 noenhanced font "sans,10"
set output "htab_threads.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$mix50 << EOD
2 6.76897 6.57662 6.96132 14.5564 13.3772 15.7356 10.3113 8.52573 12.0968 8.47203 3.35849 13.5856 NaN NaN NaN 3.78512 3.66086 3.90938 7.00003 7.00003 7.00003 7.84181 4.39686 11.2868 3.69514 3.65841 3.73188 10.1583 4.21522 16.1014 8.66398 8.64421 8.68375
EOD
$churn << EOD
2 2.10095 1.99047 2.21144 3.06916 1.23887 4.89944 2.40256 2.32068 2.48444 1.82288 1.82288 1.82288 0.931034 0.931034 0.931034 1.59306 1.55467 1.63146 2.18146 1.96284 2.40007 2.46707 1.94044 2.9937 1.89791 1.67931 2.11651 1.84198 1.84198 1.84198 2.01051 1.92023 2.10079
EOD
set multiplot layout 1,2 margins 0.05, 0.7168141592920354, 0.12, 0.88 spacing 0.05, 0.1 title "grain_htab against the baselines and anchors: throughput by threads (1M-key universe, 500k entries)"
set xlabel "threads"
set logscale x 2
set xtics ("2" 2)
set xrange [1.5384615384615383:2.6]
set yrange [0:*]
set title "50% lookup, 25% insert, 25% remove"
set ylabel 'million operations/s, median, bars min–max'
unset key
plot $mix50 using 1:2:3:4 with yerrorlines lw 2.5 pt 5 lc rgb '#1a5fb4' title "grain/1 (one stripe)", \
     $mix50 using 1:5:6:7 with yerrorlines lw 2.5 pt 7 lc rgb '#e66100' title "grain/256", \
     $mix50 using 1:8:9:10 with yerrorlines lw 2.5 pt 9 lc rgb '#26a269' title "grain-qsbr/256 (RCU lookups, qsbr)", \
     $mix50 using 1:11:12:13 with yerrorlines lw 2.5 pt 11 lc rgb '#a51d2d' title "grain-rcu/256 (RCU lookups)", \
     $mix50 using 1:14:15:16 with yerrorlines lw 1.5 pt 5 lc rgb '#613583' title "cds_lfht (liburcu)", \
     $mix50 using 1:17:18:19 with yerrorlines lw 1.5 pt 7 lc rgb '#986a44' title "ck_ht (ConcurrencyKit)", \
     $mix50 using 1:20:21:22 with yerrorlines lw 1.5 pt 9 lc rgb '#5e5c64' title "MichaelHashMap (libcds)", \
     $mix50 using 1:23:24:25 with yerrorlines lw 1.5 pt 11 lc rgb '#c061cb' title "cuckoohash_map (libcuckoo)", \
     $mix50 using 1:26:27:28 with yerrorlines lw 1.5 pt 5 lc rgb '#2ec27e' title "mutex baseline (1 lock)", \
     $mix50 using 1:29:30:31 with yerrorlines lw 1.5 pt 7 lc rgb '#f5c211' title "striped baseline (256 spinlocks)", \
     $mix50 using 1:32:33:34 with yerrorlines lw 1.5 pt 9 lc rgb '#1a5fb4' title "concurrent_hash_map (oneTBB)"
set title "churn: every op inserts into a full table and evicts"
unset ylabel
set key at screen 0.7268141592920354, 0.86 left top
plot $churn using 1:2:3:4 with yerrorlines lw 2.5 pt 5 lc rgb '#1a5fb4' title "grain/1 (one stripe)", \
     $churn using 1:5:6:7 with yerrorlines lw 2.5 pt 7 lc rgb '#e66100' title "grain/256", \
     $churn using 1:8:9:10 with yerrorlines lw 2.5 pt 9 lc rgb '#26a269' title "grain-qsbr/256 (RCU lookups, qsbr)", \
     $churn using 1:11:12:13 with yerrorlines lw 2.5 pt 11 lc rgb '#a51d2d' title "grain-rcu/256 (RCU lookups)", \
     $churn using 1:14:15:16 with yerrorlines lw 1.5 pt 5 lc rgb '#613583' title "cds_lfht (liburcu)", \
     $churn using 1:17:18:19 with yerrorlines lw 1.5 pt 7 lc rgb '#986a44' title "ck_ht (ConcurrencyKit)", \
     $churn using 1:20:21:22 with yerrorlines lw 1.5 pt 9 lc rgb '#5e5c64' title "MichaelHashMap (libcds)", \
     $churn using 1:23:24:25 with yerrorlines lw 1.5 pt 11 lc rgb '#c061cb' title "cuckoohash_map (libcuckoo)", \
     $churn using 1:26:27:28 with yerrorlines lw 1.5 pt 5 lc rgb '#2ec27e' title "mutex baseline (1 lock)", \
     $churn using 1:29:30:31 with yerrorlines lw 1.5 pt 7 lc rgb '#f5c211' title "striped baseline (256 spinlocks)", \
     $churn using 1:32:33:34 with yerrorlines lw 1.5 pt 9 lc rgb '#1a5fb4' title "concurrent_hash_map (oneTBB)"
unset multiplot
