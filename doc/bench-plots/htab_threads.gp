# htab_threads.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot htab_threads.gp
set terminal pngcairo size 1460,520 noenhanced font "sans,10"
set output "htab_threads.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$read90 << EOD
1 3.88254 4.51048 4.15947 4.12229 8.38099 8.13416 9.45383
2 3.08733 8.38508 6.86987 6.56555 12.1346 4.93888 17.8409
4 4.396 9.09073 7.93439 4.75244 11.1455 3.65799 22.3389
EOD
$mix50 << EOD
1 3.77314 3.58312 2.89221 2.82486 6.59807 5.31626 7.57568
2 3.38765 6.82405 5.21877 3.7758 4.1364 3.27313 15.7001
4 3.40379 5.76683 4.88948 4.47029 4.69339 3.52701 16.3929
EOD
$churn << EOD
1 2.17058 0.801908 0.68509 1.09441 3.17408 4.75101 4.02348
2 2.06155 1.78286 1.43706 1.7351 1.60056 2.33714 6.04753
4 2.08062 1.62307 1.45525 1.77923 2.04669 2.17294 5.51841
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
