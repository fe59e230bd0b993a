# SPDX-License-Identifier: BSD-2-Clause
# htab_stripes.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot htab_stripes.gp
set terminal pngcairo size 1590,560 noenhanced font "sans,10"
set output "htab_stripes.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$g_read90 << EOD
1 10.5379 5.85976 11.3208 8.35292 5.68535 9.81017 9.2892 7.6073 9.53858
16 11.0602 5.73426 11.5466 12.0298 9.80205 16.9402 12.246 10.0162 16.4709
256 10.1229 5.66852 12.1986 14.0661 11.6075 16.9898 15.7855 12.3119 19.967
4096 7.75529 5.22037 10.7977 12.1737 9.02365 17.9084 13.4082 8.42776 16.6971
EOD
$mutex_read90 << EOD
1 5.10653 4.71257 7.42128 1.90543 1.12873 2.1055 2.09751 1.76285 2.2578
EOD
$striped_read90 << EOD
256 7.17879 6.47602 10.0496 17.6948 13.5996 17.9912 12.9109 11.1954 17.2564
EOD
$g_mix50 << EOD
1 6.20475 3.21062 7.92624 5.57165 3.48792 6.01066 4.94193 3.48654 6.05499
16 4.42242 3.95691 6.83257 7.54062 5.50258 9.50663 7.81016 4.31928 10.4084
256 4.93771 3.46153 6.54703 10.735 6.60286 11.6719 9.4793 8.60244 11.0375
4096 4.43624 3.25107 6.56619 8.43662 6.20435 10.5615 9.9926 4.90729 10.8136
EOD
$mutex_mix50 << EOD
1 3.99207 3.68258 6.01975 1.40059 0.770939 1.7419 1.76824 1.33623 2.22354
EOD
$striped_mix50 << EOD
256 7.8138 4.83614 8.14179 12.2256 11.3947 14.11 13.4248 9.37233 13.7557
EOD
$g_churn << EOD
1 4.40513 3.05723 4.65173 2.70953 2.19471 2.8957 2.68466 2.40963 3.25604
16 3.97983 2.85358 4.17184 3.20648 2.81881 5.81723 3.2423 3.04353 3.45569
256 3.49636 2.87713 4.08778 3.69506 3.06763 4.056 3.5933 3.30829 4.11868
4096 2.4098 1.70043 2.77422 2.63376 2.23095 2.7929 2.58344 2.03079 3.27335
EOD
$mutex_churn << EOD
1 3.61114 1.95169 4.32528 0.861366 0.505645 1.71503 1.207 0.76623 1.41408
EOD
$striped_churn << EOD
256 4.51249 2.31937 4.87273 2.13567 1.89477 2.33893 2.2081 1.89706 5.17078
EOD
set multiplot layout 1,3 margins 0.05, 0.7987421383647799, 0.12, 0.88 spacing 0.05, 0.1 title "Lock granularity: grain_htab by stripe count (locked lookups), with the baselines: one mutex (at 1) and 256 spinlocks (at 256)"
set xlabel 'lock stripes'
set logscale x 2
set xtics ("1" 1, "16" 16, "256" 256, "4096" 4096)
set xrange [0.5:8192]
set yrange [0:*]
set title "90% lookup, 5% insert, 5% remove"
set ylabel 'million operations/s, median, bars min–max'
unset key
plot $g_read90 using 1:2:3:4 with yerrorlines lw 2.5 dt 1 pt 7 lc rgb '#1a5fb4' title "grain_htab, 1 thread", \
     $mutex_read90 using 1:2:3:4 with yerrorbars pt 9 ps 2 lc rgb '#1a5fb4' notitle, \
     $striped_read90 using 1:2:3:4 with yerrorbars pt 13 ps 2 lc rgb '#1a5fb4' notitle, \
     $g_read90 using 1:5:6:7 with yerrorlines lw 2.5 dt 1 pt 7 lc rgb '#e66100' title "grain_htab, 2 threads", \
     $mutex_read90 using 1:5:6:7 with yerrorbars pt 9 ps 2 lc rgb '#e66100' notitle, \
     $striped_read90 using 1:5:6:7 with yerrorbars pt 13 ps 2 lc rgb '#e66100' notitle, \
     $g_read90 using 1:8:9:10 with yerrorlines lw 2.5 dt 2 pt 7 lc rgb '#26a269' title "grain_htab, 4 threads (oversubscribed)", \
     $mutex_read90 using 1:8:9:10 with yerrorbars pt 9 ps 2 lc rgb '#26a269' notitle, \
     $striped_read90 using 1:8:9:10 with yerrorbars pt 13 ps 2 lc rgb '#26a269' notitle, \
     NaN with points pt 9 ps 2 lc rgb 'black' title "mutex baseline (1 lock)", \
     NaN with points pt 13 ps 2 lc rgb 'black' title "striped baseline (256 spinlocks)"
set title "50% lookup, 25% insert, 25% remove"
unset ylabel
unset key
plot $g_mix50 using 1:2:3:4 with yerrorlines lw 2.5 dt 1 pt 7 lc rgb '#1a5fb4' title "grain_htab, 1 thread", \
     $mutex_mix50 using 1:2:3:4 with yerrorbars pt 9 ps 2 lc rgb '#1a5fb4' notitle, \
     $striped_mix50 using 1:2:3:4 with yerrorbars pt 13 ps 2 lc rgb '#1a5fb4' notitle, \
     $g_mix50 using 1:5:6:7 with yerrorlines lw 2.5 dt 1 pt 7 lc rgb '#e66100' title "grain_htab, 2 threads", \
     $mutex_mix50 using 1:5:6:7 with yerrorbars pt 9 ps 2 lc rgb '#e66100' notitle, \
     $striped_mix50 using 1:5:6:7 with yerrorbars pt 13 ps 2 lc rgb '#e66100' notitle, \
     $g_mix50 using 1:8:9:10 with yerrorlines lw 2.5 dt 2 pt 7 lc rgb '#26a269' title "grain_htab, 4 threads (oversubscribed)", \
     $mutex_mix50 using 1:8:9:10 with yerrorbars pt 9 ps 2 lc rgb '#26a269' notitle, \
     $striped_mix50 using 1:8:9:10 with yerrorbars pt 13 ps 2 lc rgb '#26a269' notitle, \
     NaN with points pt 9 ps 2 lc rgb 'black' title "mutex baseline (1 lock)", \
     NaN with points pt 13 ps 2 lc rgb 'black' title "striped baseline (256 spinlocks)"
set title "churn: every op inserts into a full table and evicts"
unset ylabel
set key at screen 0.8087421383647799, 0.86 left top
plot $g_churn using 1:2:3:4 with yerrorlines lw 2.5 dt 1 pt 7 lc rgb '#1a5fb4' title "grain_htab, 1 thread", \
     $mutex_churn using 1:2:3:4 with yerrorbars pt 9 ps 2 lc rgb '#1a5fb4' notitle, \
     $striped_churn using 1:2:3:4 with yerrorbars pt 13 ps 2 lc rgb '#1a5fb4' notitle, \
     $g_churn using 1:5:6:7 with yerrorlines lw 2.5 dt 1 pt 7 lc rgb '#e66100' title "grain_htab, 2 threads", \
     $mutex_churn using 1:5:6:7 with yerrorbars pt 9 ps 2 lc rgb '#e66100' notitle, \
     $striped_churn using 1:5:6:7 with yerrorbars pt 13 ps 2 lc rgb '#e66100' notitle, \
     $g_churn using 1:8:9:10 with yerrorlines lw 2.5 dt 2 pt 7 lc rgb '#26a269' title "grain_htab, 4 threads (oversubscribed)", \
     $mutex_churn using 1:8:9:10 with yerrorbars pt 9 ps 2 lc rgb '#26a269' notitle, \
     $striped_churn using 1:8:9:10 with yerrorbars pt 13 ps 2 lc rgb '#26a269' notitle, \
     NaN with points pt 9 ps 2 lc rgb 'black' title "mutex baseline (1 lock)", \
     NaN with points pt 13 ps 2 lc rgb 'black' title "striped baseline (256 spinlocks)"
unset multiplot
