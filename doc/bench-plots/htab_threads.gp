# SPDX-License-Identifier: BSD-2-Clause
# htab_threads.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot htab_threads.gp
set terminal pngcairo size 1530,560 noenhanced font "sans,10"
set output "htab_threads.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$read90 << EOD
1 10.2248 6.39289 11.8035 11.0374 10.3797 11.8368 10.4176 7.46654 11.1324 8.67768 6.04084 10.2821 2.36889 1.58091 3.70234 5.70402 4.7226 9.15154 7.41204 6.75667 7.99261 10.7535 7.82569 12.2067
2 9.04774 6.92372 9.85164 18.0214 15.8313 20.5499 18.6259 15.8248 21.0948 16.4313 14.9304 17.3895 5.27497 4.31716 5.9335 9.37885 8.18812 9.65806 1.49256 1.31624 2.19648 18.5474 12.9605 20.2493
4 9.50884 8.83119 10.9293 16.7351 15.5658 19.0727 17.6201 14.3935 18.3599 13.7046 10.5493 16.6047 5.13341 3.40598 5.55768 8.70316 7.48558 9.65891 2.16172 1.90385 3.33983 18.8539 15.6779 20.9099
EOD
$mix50 << EOD
1 4.82303 4.04603 7.19715 7.08335 5.95504 7.87562 5.50928 3.3885 6.40575 6.21699 5.57237 6.40513 2.044 1.35472 2.84107 4.98406 3.6232 6.0282 5.33554 3.32856 5.98789 8.27747 5.58663 10.3711
2 6.08719 4.51662 6.60948 10.4426 9.45513 13.3478 9.39123 7.57869 10.0334 7.45821 6.62286 8.59007 3.53119 2.81294 3.72995 2.52454 1.94186 3.19608 1.49583 1.08194 3.02537 12.6345 9.95706 15.5481
4 5.84124 4.31495 6.40784 11.5072 9.45089 12.8859 7.77003 7.51917 8.54277 7.43398 6.31475 8.57782 3.63065 2.56038 3.96949 2.5871 1.97467 3.25743 1.78046 1.60094 1.89834 13.2941 9.55598 15.7915
EOD
$churn << EOD
1 3.99104 3.09603 5.44282 3.15759 3.03491 4.27591 1.68981 1.40297 1.97534 1.77759 1.46747 1.90175 0.989853 0.942457 1.19879 2.26419 2.06463 3.27367 3.49927 1.85214 4.76447 2.7895 2.16284 6.24325
2 2.77583 2.22705 3.0137 3.71592 3.41647 6.3472 1.69268 1.5684 2.27707 1.55444 1.44202 1.59526 1.01918 0.853242 1.08762 0.746379 0.720047 0.93877 0.857366 0.582768 1.94466 2.13442 2.09455 2.20219
4 3.03608 2.52828 3.97267 3.93981 3.57602 4.13927 1.54744 1.49298 3.07997 1.41983 1.34709 1.4623 0.98774 0.81884 1.02705 0.986485 0.86633 1.04087 1.16073 1.00764 1.26472 2.14529 1.98047 6.18693
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
