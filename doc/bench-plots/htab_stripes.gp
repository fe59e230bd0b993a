# SPDX-License-Identifier: BSD-2-Clause
# htab_stripes.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot htab_stripes.gp
set terminal pngcairo size 1590,560 noenhanced font "sans,10"
set output "htab_stripes.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$g_read90 << EOD
1 11.8407 8.34537 12.7764 11.0143 8.55489 12.1282 10.707 8.87429 11.655
16 12.5146 10.1865 14.0046 18.9001 14.425 21.1138 17.383 13.8543 19.0896
256 11.0235 10.0674 12.429 22.9548 17.373 26.8834 21.4915 17.8227 26.3204
4096 11.0687 8.97226 12.3855 21.4275 16.292 22.8023 22.4905 19.8904 23.0861
EOD
$mutex_read90 << EOD
1 7.70881 5.4066 9.2231 4.56772 3.43477 5.47977 4.00566 3.1232 4.35223
EOD
$striped_read90 << EOD
256 10.1509 6.82893 11.8425 24.9314 21.4035 28.155 25.6512 18.5899 29.1811
EOD
$g_mix50 << EOD
1 8.35207 7.71122 9.21107 8.31044 6.49794 8.69037 8.21102 6.72656 8.98138
16 7.51472 6.0136 8.522 12.7239 9.91199 14.0246 13.1843 10.2507 13.9529
256 8.11626 7.47304 8.5316 15.5293 13.6044 16.6117 14.8319 12.3083 16.2588
4096 7.23173 5.99362 7.60412 13.4441 11.2918 17.6283 13.0412 10.5053 14.7604
EOD
$mutex_mix50 << EOD
1 6.01921 3.90779 6.51096 3.06449 2.36613 4.55268 3.08813 2.44549 3.73843
EOD
$striped_mix50 << EOD
256 8.7462 6.49011 9.50126 21.0267 18.0254 31.9947 15.975 13.9239 19.7173
EOD
$g_churn << EOD
1 3.58576 3.34991 3.86152 3.31575 2.74487 3.86823 3.50295 2.88829 3.90708
16 3.62173 2.32667 4.27873 5.24767 4.93943 6.30201 5.89481 4.44404 6.55008
256 3.88906 3.45449 4.1853 6.98049 6.30253 7.25005 6.91116 6.708 7.74829
4096 3.23762 2.64646 3.62328 5.02912 4.08591 5.25746 4.98704 4.24898 5.21648
EOD
$mutex_churn << EOD
1 5.58517 3.77108 6.49666 2.42798 2.18419 3.5439 2.82291 2.46489 3.46182
EOD
$striped_churn << EOD
256 4.10568 3.40316 5.18473 5.65535 3.91519 6.02359 5.88391 5.51214 7.01526
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
