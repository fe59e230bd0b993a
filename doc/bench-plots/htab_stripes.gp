# SPDX-License-Identifier: BSD-2-Clause
# htab_stripes.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot htab_stripes.gp
set terminal pngcairo size 1620,520 noenhanced font "sans,10"
set output "htab_stripes.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$g_read90 << EOD
1 4.88227 4.63679 4.13651
16 4.34995 6.58102 8.19326
256 4.01431 9.27748 8.75144
4096 3.86932 6.771 7.13852
EOD
$mutex_read90 << EOD
1 8.03256 4.42661 3.15222
EOD
$striped_read90 << EOD
256 9.47452 21.3218 20.1528
EOD
$g_mix50 << EOD
1 3.8885 3.89382 3.73582
16 3.48523 7.25488 6.18759
256 3.68396 5.97433 6.47424
4096 3.33201 5.78802 6.29778
EOD
$mutex_mix50 << EOD
1 5.612 4.23635 3.58357
EOD
$striped_mix50 << EOD
256 8.03972 20.1202 14.3393
EOD
$g_churn << EOD
1 2.17275 2.03648 1.88994
16 1.71779 2.53473 2.59321
256 0.841874 1.83406 1.83717
4096 0.0720757 0.229902 0.37127
EOD
$mutex_churn << EOD
1 4.88357 2.3588 2.64888
EOD
$striped_churn << EOD
256 4.04494 4.24768 4.10317
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
