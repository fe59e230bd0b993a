# SPDX-License-Identifier: BSD-2-Clause
# htab_threads.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot htab_threads.gp
set terminal pngcairo size 1460,520 noenhanced font "sans,10"
set output "htab_threads.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$read90 << EOD
1 14.4193 13.8148 11.6533 12.1454 5.08793 9.33328 11.2634 14.9288
2 8.95535 23.4541 27.0655 18.4042 7.54636 12.9186 6.32964 30.1321
4 10.1974 22.8545 21.1508 18.0222 7.66493 14.1543 5.55593 30.8027
EOD
$mix50 << EOD
1 9.47131 8.79783 5.96808 6.32617 3.31396 8.00479 8.3947 10.6342
2 7.03385 16.6402 9.57353 8.47507 5.77491 4.13226 5.34796 21.0644
4 7.7807 14.6443 9.33851 7.70775 4.83677 5.38177 4.58726 21.8365
EOD
$churn << EOD
1 5.63555 4.04507 2.01479 1.87491 1.36471 3.78694 6.18675 7.84751
2 3.03783 5.08292 2.36787 2.35195 1.56189 2.73001 3.76361 3.94272
4 3.37462 5.4222 2.2527 2.15851 1.47537 2.43941 3.13621 4.02415
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
     $read90 using 1:4 with linespoints lw 2.5 pt 9 lc rgb '#26a269' title "grain-qsbr/256 (RCU lookups, qsbr)", \
     $read90 using 1:5 with linespoints lw 2.5 pt 11 lc rgb '#a51d2d' title "grain-rcu/256 (RCU lookups)", \
     $read90 using 1:6 with linespoints lw 1.5 pt 5 lc rgb '#613583' title "cds_lfht (liburcu)", \
     $read90 using 1:7 with linespoints lw 1.5 pt 7 lc rgb '#986a44' title "ck_ht (ConcurrencyKit)", \
     $read90 using 1:8 with linespoints lw 1.5 pt 9 lc rgb '#5e5c64' title "mutex baseline (1 lock)", \
     $read90 using 1:9 with linespoints lw 1.5 pt 11 lc rgb '#c061cb' title "striped baseline (256 spinlocks)"
set title "50% lookup, 25% insert, 25% remove"
unset ylabel
unset key
plot $mix50 using 1:2 with linespoints lw 2.5 pt 5 lc rgb '#1a5fb4' title "grain/1 (one stripe)", \
     $mix50 using 1:3 with linespoints lw 2.5 pt 7 lc rgb '#e66100' title "grain/256", \
     $mix50 using 1:4 with linespoints lw 2.5 pt 9 lc rgb '#26a269' title "grain-qsbr/256 (RCU lookups, qsbr)", \
     $mix50 using 1:5 with linespoints lw 2.5 pt 11 lc rgb '#a51d2d' title "grain-rcu/256 (RCU lookups)", \
     $mix50 using 1:6 with linespoints lw 1.5 pt 5 lc rgb '#613583' title "cds_lfht (liburcu)", \
     $mix50 using 1:7 with linespoints lw 1.5 pt 7 lc rgb '#986a44' title "ck_ht (ConcurrencyKit)", \
     $mix50 using 1:8 with linespoints lw 1.5 pt 9 lc rgb '#5e5c64' title "mutex baseline (1 lock)", \
     $mix50 using 1:9 with linespoints lw 1.5 pt 11 lc rgb '#c061cb' title "striped baseline (256 spinlocks)"
set title "churn: every op inserts into a full table and evicts"
unset ylabel
set key at screen 0.84, 0.86 left top
plot $churn using 1:2 with linespoints lw 2.5 pt 5 lc rgb '#1a5fb4' title "grain/1 (one stripe)", \
     $churn using 1:3 with linespoints lw 2.5 pt 7 lc rgb '#e66100' title "grain/256", \
     $churn using 1:4 with linespoints lw 2.5 pt 9 lc rgb '#26a269' title "grain-qsbr/256 (RCU lookups, qsbr)", \
     $churn using 1:5 with linespoints lw 2.5 pt 11 lc rgb '#a51d2d' title "grain-rcu/256 (RCU lookups)", \
     $churn using 1:6 with linespoints lw 1.5 pt 5 lc rgb '#613583' title "cds_lfht (liburcu)", \
     $churn using 1:7 with linespoints lw 1.5 pt 7 lc rgb '#986a44' title "ck_ht (ConcurrencyKit)", \
     $churn using 1:8 with linespoints lw 1.5 pt 9 lc rgb '#5e5c64' title "mutex baseline (1 lock)", \
     $churn using 1:9 with linespoints lw 1.5 pt 11 lc rgb '#c061cb' title "striped baseline (256 spinlocks)"
unset multiplot
