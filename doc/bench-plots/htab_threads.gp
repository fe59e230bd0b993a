# SPDX-License-Identifier: BSD-2-Clause
# htab_threads.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot htab_threads.gp
set terminal pngcairo size 1460,520 noenhanced font "sans,10"
set output "htab_threads.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$read90 << EOD
1 4.88227 4.01431 4.22545 3.2625 9.04966 8.03256 9.47452
2 4.63679 9.27748 6.06258 7.21945 11.7284 4.42661 21.3218
4 4.13651 8.75144 5.81888 6.52599 11.7331 3.15222 20.1528
EOD
$mix50 << EOD
1 3.8885 3.68396 3.16123 2.9177 6.15279 5.612 8.03972
2 3.89382 5.97433 5.85206 4.41427 4.95419 4.23635 20.1202
4 3.73582 6.47424 4.51961 5.56666 4.3203 3.58357 14.3393
EOD
$churn << EOD
1 2.17275 0.841874 0.726254 1.22995 3.21602 4.88357 4.04494
2 2.03648 1.83406 1.37613 1.816 1.59417 2.3588 4.24768
4 1.88994 1.83717 1.49071 1.72982 2.07055 2.64888 4.10317
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
