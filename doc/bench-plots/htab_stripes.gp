# SPDX-License-Identifier: BSD-2-Clause
# htab_stripes.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot htab_stripes.gp
set terminal pngcairo size 1620,520 noenhanced font "sans,10"
set output "htab_stripes.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$g_read90 << EOD
1 14.4193 8.95535 10.1974
16 14.6597 16.1075 16.0116
256 13.8148 23.4541 22.8545
4096 12.5332 22.316 21.914
EOD
$mutex_read90 << EOD
1 11.2634 6.32964 5.55593
EOD
$striped_read90 << EOD
256 14.9288 30.1321 30.8027
EOD
$g_mix50 << EOD
1 9.47131 7.03385 7.7807
16 8.54986 12.4357 11.7804
256 8.79783 16.6402 14.6443
4096 7.32478 15.8958 14.2713
EOD
$mutex_mix50 << EOD
1 8.3947 5.34796 4.58726
EOD
$striped_mix50 << EOD
256 10.6342 21.0644 21.8365
EOD
$g_churn << EOD
1 5.63555 3.03783 3.37462
16 4.53467 4.15704 4.14012
256 4.04507 5.08292 5.4222
4096 3.19014 3.68169 3.72347
EOD
$mutex_churn << EOD
1 6.18675 3.76361 3.13621
EOD
$striped_churn << EOD
256 7.84751 3.94272 4.02415
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
