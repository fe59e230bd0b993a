# htab_stripes.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot htab_stripes.gp
set terminal pngcairo size 1620,520 noenhanced font "sans,10"
set output "htab_stripes.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$g_read90 << EOD
1 3.88254 3.08733 4.396
16 4.65175 7.97314 7.61071
256 4.51048 8.38508 9.09073
4096 3.61524 8.84069 7.356
EOD
$mutex_read90 << EOD
1 8.13416 4.93888 3.65799
EOD
$striped_read90 << EOD
256 9.45383 17.8409 22.3389
EOD
$g_mix50 << EOD
1 3.77314 3.38765 3.40379
16 3.38109 6.79293 5.26172
256 3.58312 6.82405 5.76683
4096 2.84194 6.04611 6.24027
EOD
$mutex_mix50 << EOD
1 5.31626 3.27313 3.52701
EOD
$striped_mix50 << EOD
256 7.57568 15.7001 16.3929
EOD
$g_churn << EOD
1 2.17058 2.06155 2.08062
16 1.67289 2.58834 2.33627
256 0.801908 1.78286 1.62307
4096 0.067711 0.248145 0.396354
EOD
$mutex_churn << EOD
1 4.75101 2.33714 2.17294
EOD
$striped_churn << EOD
256 4.02348 6.04753 5.51841
EOD
set multiplot layout 1,3 margins 0.05, 0.74, 0.12, 0.88 spacing 0.05, 0.1 title "Lock granularity: grain_htab by stripe count (locked lookups), with the baselines: one mutex (at 1) and 256 spinlocks (at 256)"
set xlabel 'lock stripes'
set logscale x 2
set xtics ("1" 1, "16" 16, "256" 256, "4096" 4096)
set xrange [0.5:8192]
set yrange [0:*]
set title "90% lookup, 5% insert, 5% remove"
set ylabel 'million operations/s, median'
unset key
plot $g_read90 using 1:2 with linespoints lw 2.5 dt 1 pt 7 lc rgb '#1a5fb4' title "grain_htab, 1 thread", \
     $mutex_read90 using 1:2 with points pt 9 ps 2 lc rgb '#1a5fb4' notitle, \
     $striped_read90 using 1:2 with points pt 13 ps 2 lc rgb '#1a5fb4' notitle, \
     $g_read90 using 1:3 with linespoints lw 2.5 dt 1 pt 7 lc rgb '#e66100' title "grain_htab, 2 threads", \
     $mutex_read90 using 1:3 with points pt 9 ps 2 lc rgb '#e66100' notitle, \
     $striped_read90 using 1:3 with points pt 13 ps 2 lc rgb '#e66100' notitle, \
     $g_read90 using 1:4 with linespoints lw 2.5 dt 2 pt 7 lc rgb '#26a269' title "grain_htab, 4 threads (oversubscribed)", \
     $mutex_read90 using 1:4 with points pt 9 ps 2 lc rgb '#26a269' notitle, \
     $striped_read90 using 1:4 with points pt 13 ps 2 lc rgb '#26a269' notitle, \
     NaN with points pt 9 ps 2 lc rgb 'black' title "mutex baseline (1 lock)", \
     NaN with points pt 13 ps 2 lc rgb 'black' title "striped baseline (256 spinlocks)"
set title "50% lookup, 25% insert, 25% remove"
unset ylabel
unset key
plot $g_mix50 using 1:2 with linespoints lw 2.5 dt 1 pt 7 lc rgb '#1a5fb4' title "grain_htab, 1 thread", \
     $mutex_mix50 using 1:2 with points pt 9 ps 2 lc rgb '#1a5fb4' notitle, \
     $striped_mix50 using 1:2 with points pt 13 ps 2 lc rgb '#1a5fb4' notitle, \
     $g_mix50 using 1:3 with linespoints lw 2.5 dt 1 pt 7 lc rgb '#e66100' title "grain_htab, 2 threads", \
     $mutex_mix50 using 1:3 with points pt 9 ps 2 lc rgb '#e66100' notitle, \
     $striped_mix50 using 1:3 with points pt 13 ps 2 lc rgb '#e66100' notitle, \
     $g_mix50 using 1:4 with linespoints lw 2.5 dt 2 pt 7 lc rgb '#26a269' title "grain_htab, 4 threads (oversubscribed)", \
     $mutex_mix50 using 1:4 with points pt 9 ps 2 lc rgb '#26a269' notitle, \
     $striped_mix50 using 1:4 with points pt 13 ps 2 lc rgb '#26a269' notitle, \
     NaN with points pt 9 ps 2 lc rgb 'black' title "mutex baseline (1 lock)", \
     NaN with points pt 13 ps 2 lc rgb 'black' title "striped baseline (256 spinlocks)"
set title "churn: every op inserts into a full table and evicts"
unset ylabel
set key at screen 0.75, 0.86 left top
plot $g_churn using 1:2 with linespoints lw 2.5 dt 1 pt 7 lc rgb '#1a5fb4' title "grain_htab, 1 thread", \
     $mutex_churn using 1:2 with points pt 9 ps 2 lc rgb '#1a5fb4' notitle, \
     $striped_churn using 1:2 with points pt 13 ps 2 lc rgb '#1a5fb4' notitle, \
     $g_churn using 1:3 with linespoints lw 2.5 dt 1 pt 7 lc rgb '#e66100' title "grain_htab, 2 threads", \
     $mutex_churn using 1:3 with points pt 9 ps 2 lc rgb '#e66100' notitle, \
     $striped_churn using 1:3 with points pt 13 ps 2 lc rgb '#e66100' notitle, \
     $g_churn using 1:4 with linespoints lw 2.5 dt 2 pt 7 lc rgb '#26a269' title "grain_htab, 4 threads (oversubscribed)", \
     $mutex_churn using 1:4 with points pt 9 ps 2 lc rgb '#26a269' notitle, \
     $striped_churn using 1:4 with points pt 13 ps 2 lc rgb '#26a269' notitle, \
     NaN with points pt 9 ps 2 lc rgb 'black' title "mutex baseline (1 lock)", \
     NaN with points pt 13 ps 2 lc rgb 'black' title "striped baseline (256 spinlocks)"
unset multiplot
