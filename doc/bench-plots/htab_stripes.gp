# SPDX-License-Identifier: BSD-2-Clause
# htab_stripes.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot htab_stripes.gp
set terminal pngcairo size 1620,520 noenhanced font "sans,10"
set output "htab_stripes.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$g_read90 << EOD
1 13.3662 9.13995 10.7519
16 13.2709 19.2111 18.007
256 12.8377 25.9661 23.2394
4096 12.5739 24.0638 25.2729
EOD
$mutex_read90 << EOD
1 11.9922 6.68033 5.05042
EOD
$striped_read90 << EOD
256 15.2258 30.1039 31.6611
EOD
$g_mix50 << EOD
1 7.91548 6.4733 7.04775
16 7.59831 13.5114 12.6541
256 7.67274 15.9444 15.6182
4096 6.80077 15.673 13.5048
EOD
$mutex_mix50 << EOD
1 9.07452 5.15785 5.16066
EOD
$striped_mix50 << EOD
256 10.9134 23.5591 23.1203
EOD
$g_churn << EOD
1 6.92847 3.09495 3.54309
16 4.58877 4.21908 4.37225
256 4.31079 6.05135 5.88761
4096 2.99729 3.90363 3.77223
EOD
$mutex_churn << EOD
1 5.86442 4.1315 3.22081
EOD
$striped_churn << EOD
256 7.2434 3.85624 4.22093
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
