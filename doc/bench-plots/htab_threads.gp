# SPDX-License-Identifier: BSD-2-Clause
# htab_threads.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot htab_threads.gp
set terminal pngcairo size 1530,560 noenhanced font "sans,10"
set output "htab_threads.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$read90 << EOD
1 13.1262 9.09523 16.1768 11.5965 8.94456 13.3154 11.5646 8.79749 14.7043 10.6868 6.30169 12.4812 2.80205 2.08107 3.96563 6.92277 5.22019 10.5281 6.81615 4.8363 7.68891 12.8998 7.31351 14.5578
2 8.15643 6.33889 9.84786 15.462 13.6643 18.2268 17.7775 15.4005 28.3105 16.844 13.6918 19.5547 4.83744 3.45591 5.86211 10.465 8.29572 10.7526 3.95771 3.20481 4.93518 19.8356 18.3731 25.4974
4 8.83385 7.14305 11.6022 17.9227 14.049 25.0299 18.9742 15.973 21.0487 14.3028 12.2649 17.5541 4.96835 3.58169 6.50002 10.4998 9.08267 13.3249 3.77115 2.0063 5.12486 20.2111 16.792 25.1875
EOD
$mix50 << EOD
1 8.72846 6.10381 9.65967 6.57934 5.32458 9.29842 5.36032 4.23305 7.13039 4.74583 4.24973 6.80319 2.17433 1.94692 2.87641 5.31133 4.44851 6.64883 4.82138 3.33848 6.05444 8.27726 6.31225 10.8722
2 5.71891 4.36252 6.80284 11.4591 9.54693 13.1687 9.88265 8.77522 12.495 7.59259 7.51202 11.8419 4.05133 3.77024 4.53859 3.58186 3.23607 5.09522 3.42901 2.7809 4.10753 16.7029 11.379 18.4115
4 6.06941 4.78631 7.05186 12.3304 9.84587 13.1074 9.49405 8.56242 10.8523 8.599 7.19709 9.70183 3.79728 3.07345 5.07737 4.38574 4.04472 4.66611 2.81737 2.59303 3.22152 16.56 12.6705 19.1718
EOD
$churn << EOD
1 4.1643 3.20403 5.16884 3.77345 2.78658 4.36809 1.72657 1.53908 2.1291 1.62642 1.40893 2.12729 0.919107 0.880924 1.20036 3.20528 2.73663 3.61243 2.94282 2.32826 4.33497 3.79595 2.94797 4.97774
2 2.67705 2.0261 2.89842 4.90862 4.49877 6.29324 2.27326 1.86401 2.43731 1.97653 1.74515 2.11146 1.26348 1.13568 1.35327 2.34235 2.1232 2.63844 2.22528 1.55958 2.45926 3.66198 3.37408 4.14253
4 3.34318 3.03003 3.6609 4.99881 4.27881 6.06066 2.15771 2.00401 2.33451 2.13506 1.87598 2.56064 1.23229 0.979115 1.35965 1.97109 1.76351 2.12155 1.66099 1.44939 2.2209 3.75148 3.56971 4.26641
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
