# SPDX-License-Identifier: BSD-2-Clause
# htab_stripes.gp - drawn by bench/report.py from build/bench-results/quick; run: gnuplot htab_stripes.gp
set terminal pngcairo size 1170,560 noenhanced font "sans,10"
set output "htab_stripes.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$g_mix50 << EOD
1 6.76897 6.57662 6.96132
16 7.45013 7.45013 7.45013
256 14.5564 13.3772 15.7356
4096 14.4287 14.1046 14.7528
EOD
$mutex_mix50 << EOD
1 3.69514 3.65841 3.73188
EOD
$striped_mix50 << EOD
256 10.1583 4.21522 16.1014
EOD
$g_churn << EOD
1 2.10095 1.99047 2.21144
16 2.58204 2.45206 2.71202
256 3.06916 1.23887 4.89944
4096 3.24348 3.02771 3.45924
EOD
$mutex_churn << EOD
1 1.89791 1.67931 2.11651
EOD
$striped_churn << EOD
256 1.84198 1.84198 1.84198
EOD
set multiplot layout 1,2 margins 0.05, 0.7264957264957265, 0.12, 0.88 spacing 0.05, 0.1 title "Lock granularity: grain_htab by stripe count (locked lookups), with the baselines: one mutex (at 1) and 256 spinlocks (at 256)"
set xlabel 'lock stripes'
set logscale x 2
set xtics ("1" 1, "16" 16, "256" 256, "4096" 4096)
set xrange [0.5:8192]
set yrange [0:*]
set title "50% lookup, 25% insert, 25% remove"
set ylabel 'million operations/s, median, bars min–max'
unset key
plot $g_mix50 using 1:2:3:4 with yerrorlines lw 2.5 dt 1 pt 7 lc rgb '#1a5fb4' title "grain_htab, 2 threads", \
     $mutex_mix50 using 1:2:3:4 with yerrorbars pt 9 ps 2 lc rgb '#1a5fb4' notitle, \
     $striped_mix50 using 1:2:3:4 with yerrorbars pt 13 ps 2 lc rgb '#1a5fb4' notitle, \
     NaN with points pt 9 ps 2 lc rgb 'black' title "mutex baseline (1 lock)", \
     NaN with points pt 13 ps 2 lc rgb 'black' title "striped baseline (256 spinlocks)"
set title "churn: every op inserts into a full table and evicts"
unset ylabel
set key at screen 0.7364957264957265, 0.86 left top
plot $g_churn using 1:2:3:4 with yerrorlines lw 2.5 dt 1 pt 7 lc rgb '#1a5fb4' title "grain_htab, 2 threads", \
     $mutex_churn using 1:2:3:4 with yerrorbars pt 9 ps 2 lc rgb '#1a5fb4' notitle, \
     $striped_churn using 1:2:3:4 with yerrorbars pt 13 ps 2 lc rgb '#1a5fb4' notitle, \
     NaN with points pt 9 ps 2 lc rgb 'black' title "mutex baseline (1 lock)", \
     NaN with points pt 13 ps 2 lc rgb 'black' title "striped baseline (256 spinlocks)"
unset multiplot
