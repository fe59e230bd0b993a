# SPDX-License-Identifier: BSD-2-Clause
# htab_stripes.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot htab_stripes.gp
set terminal pngcairo size 1590,560 noenhanced font "sans,10"
set output "htab_stripes.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$g_read90 << EOD
1 10.2248 6.39289 11.8035 9.04774 6.92372 9.85164 9.50884 8.83119 10.9293
16 11.6793 9.13271 12.9307 14.6033 12.8794 16.6631 12.8469 11.1554 14.986
256 11.0374 10.3797 11.8368 18.0214 15.8313 20.5499 16.7351 15.5658 19.0727
4096 9.29809 6.8987 11.1292 18.6308 16.3434 21.6419 16.9914 14.5455 19.1709
EOD
$mutex_read90 << EOD
1 7.41204 6.75667 7.99261 1.49256 1.31624 2.19648 2.16172 1.90385 3.33983
EOD
$striped_read90 << EOD
256 10.7535 7.82569 12.2067 18.5474 12.9605 20.2493 18.8539 15.6779 20.9099
EOD
$g_mix50 << EOD
1 4.82303 4.04603 7.19715 6.08719 4.51662 6.60948 5.84124 4.31495 6.40784
16 6.7218 4.18121 7.76763 9.71831 8.44006 11.0864 8.03237 7.36268 8.94858
256 7.08335 5.95504 7.87562 10.4426 9.45513 13.3478 11.5072 9.45089 12.8859
4096 5.94504 3.745 7.0071 10.3591 8.14131 11.6906 10.2649 7.38354 12.1912
EOD
$mutex_mix50 << EOD
1 5.33554 3.32856 5.98789 1.49583 1.08194 3.02537 1.78046 1.60094 1.89834
EOD
$striped_mix50 << EOD
256 8.27747 5.58663 10.3711 12.6345 9.95706 15.5481 13.2941 9.55598 15.7915
EOD
$g_churn << EOD
1 3.99104 3.09603 5.44282 2.77583 2.22705 3.0137 3.03608 2.52828 3.97267
16 3.97992 2.79735 4.27441 3.22662 3.03341 5.58544 3.16687 2.86094 3.28951
256 3.15759 3.03491 4.27591 3.71592 3.41647 6.3472 3.93981 3.57602 4.13927
4096 2.5361 1.71542 3.24302 2.712 2.38133 4.87037 2.63578 2.32702 3.62537
EOD
$mutex_churn << EOD
1 3.49927 1.85214 4.76447 0.857366 0.582768 1.94466 1.16073 1.00764 1.26472
EOD
$striped_churn << EOD
256 2.7895 2.16284 6.24325 2.13442 2.09455 2.20219 2.14529 1.98047 6.18693
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
