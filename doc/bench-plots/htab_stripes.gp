# SPDX-License-Identifier: BSD-2-Clause
# htab_stripes.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot htab_stripes.gp
set terminal pngcairo size 1590,560 noenhanced font "sans,10"
set output "htab_stripes.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$g_read90 << EOD
1 17.1953 12.8577 18.6032 9.67722 7.70081 10.7701 11.1874 9.86847 11.8472
16 14.7913 10.3841 17.7724 17.8304 15.0107 19.6043 15.8276 14.9257 18.8952
256 14.151 10.0442 16.2749 23.4888 20.6346 26.4502 22.3125 16.0836 24.6924
4096 13.1171 9.03648 14.6503 21.2408 14.4202 26.8983 22.0886 15.1001 26.9154
EOD
$mutex_read90 << EOD
1 9.40095 7.30032 11.2591 5.23503 3.46816 5.96186 4.6553 2.71403 5.77287
EOD
$striped_read90 << EOD
256 16.0456 8.76719 16.3767 24.5309 20.4731 31.4853 27.4249 22.1943 32.1849
EOD
$g_mix50 << EOD
1 10.5977 6.74383 11.0804 6.34393 5.56462 7.14703 7.41589 6.00872 8.19708
16 9.35262 6.12593 10.6598 11.3816 10.7996 14.2421 12.2964 9.80407 13.7936
256 7.97141 6.01338 8.69294 15.0707 12.8901 16.9591 14.9201 11.8301 16.4769
4096 8.93863 4.90638 9.76765 12.0072 10.5752 16.2641 12.5879 10.0491 15.7164
EOD
$mutex_mix50 << EOD
1 6.99648 4.59062 7.79496 4.15707 2.79851 5.60529 3.82041 2.99779 4.37025
EOD
$striped_mix50 << EOD
256 9.57699 6.92374 12.6223 22.2098 20.6308 25.3985 20.016 16.2646 23.8877
EOD
$g_churn << EOD
1 4.40708 3.12066 5.46413 2.12834 2.02453 3.09827 2.32558 2.17661 2.68263
16 3.61022 2.33582 3.77427 3.36236 2.95183 3.68086 3.37668 2.9055 3.61181
256 2.51629 2.19811 3.3863 4.17745 3.85351 4.75119 3.97312 3.24339 4.74871
4096 2.09024 1.46023 2.34869 2.69311 2.47006 3.01755 2.66541 2.19395 2.9418
EOD
$mutex_churn << EOD
1 4.89017 3.3207 6.63703 3.02107 1.76689 3.40172 2.553 1.44086 3.13289
EOD
$striped_churn << EOD
256 6.0914 3.86224 7.85581 4.12138 3.6276 8.78409 4.08375 3.79954 4.39024
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
