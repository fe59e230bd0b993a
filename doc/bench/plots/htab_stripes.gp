# SPDX-License-Identifier: BSD-2-Clause
# htab_stripes.gp - drawn by bench/report.py from build/bench-results; run: gnuplot htab_stripes.gp
set terminal pngcairo size 1590,560 noenhanced font "sans,10"
set output "htab_stripes.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$g_read90 << EOD
1 3.65031 3.1993 4.10132 1.7857 1.54194 1.87334 4.36946 3.90527 4.83364
16 4.14109 2.79576 4.4068 2.08382 1.50415 2.6635 2.99615 2.33721 3.65508
256 3.5569 2.92562 4.18817 1.96682 1.55221 2.38144 2.2576 2.02858 2.48662
4096 4.52378 3.12534 4.70951 2.91963 1.82158 4.01769 3.3956 2.42678 4.6496
EOD
$mutex_read90 << EOD
1 2.33944 1.00058 3.67831 1.54593 1.54514 1.54673 3.64474 3.2602 4.02928
EOD
$striped_read90 << EOD
256 3.77038 2.45545 3.80615 2.87876 2.87876 2.87876 1.7387 1.4322 1.82227
EOD
$g_mix50 << EOD
1 2.98622 2.2989 3.00523 1.50344 1.23259 1.77429 2.54097 1.33599 3.74594
16 2.40465 2.40465 2.40465 1.70284 1.31504 2.09063 2.44704 2.08907 2.80501
256 2.43026 1.69088 3.16963 1.44012 1.15877 1.6524 NaN NaN NaN
4096 2.9349 2.9349 2.9349 1.32029 1.32029 1.32029 3.4542 3.4542 3.4542
EOD
$mutex_mix50 << EOD
1 1.55765 1.55765 1.55765 1.47793 0.943535 2.14389 1.87359 0.804294 2.07816
EOD
$striped_mix50 << EOD
256 2.68676 2.68676 2.68676 1.72502 1.22528 2.22475 1.68744 1.19109 2.18378
EOD
$g_churn << EOD
1 1.99822 1.27403 2.72241 1.17881 1.0975 1.26011 1.40923 0.734513 1.50118
16 1.53513 1.08733 1.98292 1.03841 0.862521 1.2143 2.47851 2.47851 2.47851
256 1.13282 1.13282 1.13282 0.73179 0.626694 0.799104 1.16284 0.853109 1.47257
4096 0.760905 0.545869 0.97594 0.504391 0.498193 0.596099 0.582091 0.582091 0.582091
EOD
$mutex_churn << EOD
1 1.65875 1.65875 1.65875 0.833712 0.833712 0.833712 1.03302 1.03302 1.03302
EOD
$striped_churn << EOD
256 1.24125 0.882733 1.47118 0.545807 0.496485 0.595128 1.70498 1.20099 2.11057
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
