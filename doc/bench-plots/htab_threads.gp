# SPDX-License-Identifier: BSD-2-Clause
# htab_threads.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot htab_threads.gp
set terminal pngcairo size 1460,520 noenhanced font "sans,10"
set output "htab_threads.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$read90 << EOD
1 13.3662 12.8377 12.018 5.59159 12.6611 11.9922 15.2258
2 9.13995 25.9661 19.7795 9.0561 13.5801 6.68033 30.1039
4 10.7519 23.2394 19.432 8.60621 14.8799 5.05042 31.6611
EOD
$mix50 << EOD
1 7.91548 7.67274 5.43841 3.44155 7.71591 9.07452 10.9134
2 6.4733 15.9444 8.97991 5.69442 5.30402 5.15785 23.5591
4 7.04775 15.6182 7.99112 5.56365 5.79241 5.16066 23.1203
EOD
$churn << EOD
1 6.92847 4.31079 2.1873 1.55524 4.00853 5.86442 7.2434
2 3.09495 6.05135 2.50274 1.60571 2.96046 4.1315 3.85624
4 3.54309 5.88761 2.33168 1.46245 2.52895 3.22081 4.22093
EOD
set multiplot layout 1,3 margins 0.05, 0.83, 0.12, 0.88 spacing 0.05, 0.1 title "grain_htab against the baselines and anchors: throughput by threads (1M-key universe, 500k entries)"
set xlabel 'threads'
set logscale x 2
set xtics ("1" 1, "2" 2, "4" 4)
set xrange [0.7692307692307692:5.2]
set yrange [0:*]
set object 1 rect from 2.8284271247461903, graph 0 to 5.2, graph 1 behind fc rgb '#f1e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed' at 5.2, graph 0.98 right offset -0.5,0 tc rgb '#a05050'
set title "90% lookup, 5% insert, 5% remove"
set ylabel 'million operations/s, median'
unset key
plot $read90 using 1:2 with linespoints lw 2.5 pt 5 lc rgb '#1a5fb4' title "grain/1 (one stripe)", \
     $read90 using 1:3 with linespoints lw 2.5 pt 7 lc rgb '#e66100' title "grain/256", \
     $read90 using 1:4 with linespoints lw 2.5 pt 9 lc rgb '#26a269' title "grain-rcu/256 (RCU lookups)", \
     $read90 using 1:5 with linespoints lw 1.5 pt 11 lc rgb '#a51d2d' title "cds_lfht (liburcu)", \
     $read90 using 1:6 with linespoints lw 1.5 pt 5 lc rgb '#613583' title "ck_ht (ConcurrencyKit)", \
     $read90 using 1:7 with linespoints lw 1.5 pt 7 lc rgb '#986a44' title "mutex baseline (1 lock)", \
     $read90 using 1:8 with linespoints lw 1.5 pt 9 lc rgb '#5e5c64' title "striped baseline (256 spinlocks)"
set title "50% lookup, 25% insert, 25% remove"
unset ylabel
unset key
plot $mix50 using 1:2 with linespoints lw 2.5 pt 5 lc rgb '#1a5fb4' title "grain/1 (one stripe)", \
     $mix50 using 1:3 with linespoints lw 2.5 pt 7 lc rgb '#e66100' title "grain/256", \
     $mix50 using 1:4 with linespoints lw 2.5 pt 9 lc rgb '#26a269' title "grain-rcu/256 (RCU lookups)", \
     $mix50 using 1:5 with linespoints lw 1.5 pt 11 lc rgb '#a51d2d' title "cds_lfht (liburcu)", \
     $mix50 using 1:6 with linespoints lw 1.5 pt 5 lc rgb '#613583' title "ck_ht (ConcurrencyKit)", \
     $mix50 using 1:7 with linespoints lw 1.5 pt 7 lc rgb '#986a44' title "mutex baseline (1 lock)", \
     $mix50 using 1:8 with linespoints lw 1.5 pt 9 lc rgb '#5e5c64' title "striped baseline (256 spinlocks)"
set title "churn: every op inserts into a full table and evicts"
unset ylabel
set key at screen 0.84, 0.86 left top
plot $churn using 1:2 with linespoints lw 2.5 pt 5 lc rgb '#1a5fb4' title "grain/1 (one stripe)", \
     $churn using 1:3 with linespoints lw 2.5 pt 7 lc rgb '#e66100' title "grain/256", \
     $churn using 1:4 with linespoints lw 2.5 pt 9 lc rgb '#26a269' title "grain-rcu/256 (RCU lookups)", \
     $churn using 1:5 with linespoints lw 1.5 pt 11 lc rgb '#a51d2d' title "cds_lfht (liburcu)", \
     $churn using 1:6 with linespoints lw 1.5 pt 5 lc rgb '#613583' title "ck_ht (ConcurrencyKit)", \
     $churn using 1:7 with linespoints lw 1.5 pt 7 lc rgb '#986a44' title "mutex baseline (1 lock)", \
     $churn using 1:8 with linespoints lw 1.5 pt 9 lc rgb '#5e5c64' title "striped baseline (256 spinlocks)"
unset multiplot
