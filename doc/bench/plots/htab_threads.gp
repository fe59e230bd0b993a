# SPDX-License-Identifier: BSD-2-Clause
# htab_threads.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot htab_threads.gp
set terminal pngcairo size 1530,560 noenhanced font "sans,10"
set output "htab_threads.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$read90 << EOD
1 16.0308 13.5059 17.2724 13.8793 10.4906 16.0971 13.8175 12.195 18.511 13.111 10.7102 16.6514 6.15474 5.26468 8.38322 10.7397 9.2289 11.8214 10.6499 6.3604 13.486 13.1835 9.18361 24.4312
2 11.796 8.9344 15.5045 24.5983 21.4228 30.0145 25.7216 20.5136 27.5367 19.7515 16.7049 23.2608 7.01977 6.11074 7.71764 10.7239 9.88429 14.4853 2.52538 2.49433 2.88911 23.1343 18.8819 37.2114
4 12.3629 11.0299 13.6845 21.1343 19.2715 27.365 23.7959 22.226 25.6139 19.3253 17.6028 22.1436 7.04008 6.07199 8.93698 10.5801 9.34312 12.1005 3.07958 2.05256 3.39292 24.3326 23.017 27.8913
EOD
$mix50 << EOD
1 10.7206 7.5857 11.9287 9.05686 7.7157 10.6718 7.20715 4.92217 7.41092 7.43513 6.84057 8.08402 4.02802 3.31334 4.3558 7.07425 4.64301 7.59389 7.67858 4.74486 9.9786 9.96625 7.15778 12.4185
2 7.06104 6.16608 8.19942 15.6549 11.7095 17.2175 12.6396 11.2137 13.4435 11.0766 8.00597 12.2125 5.1832 4.18739 5.84421 3.04934 2.383 3.23171 1.83856 1.4042 2.64164 18.8255 15.9009 23.9825
4 7.0829 5.86916 8.03671 14.6042 11.802 16.4422 11.7248 8.45123 13.4807 10.2212 9.45786 10.9019 4.99967 4.11371 5.50237 3.08833 2.87808 4.11816 2.05146 1.75947 2.4968 17.117 10.212 21.0696
EOD
$churn << EOD
1 6.67903 4.98617 9.24662 4.69912 3.82338 5.35879 1.81958 1.62182 2.16871 2.14516 1.81179 2.30371 1.32445 0.888372 1.35776 3.77738 2.946 4.05044 6.70145 4.9075 10.3326 6.67796 4.19479 14.0816
2 3.12945 2.70415 5.18133 4.52551 4.37713 4.58254 1.94096 1.81378 1.97037 1.74383 1.64597 1.78292 1.18729 1.12936 1.92899 0.870798 0.844006 1.15248 1.03157 0.741863 1.85381 2.65683 2.37324 7.88874
4 3.51342 3.06417 5.63996 4.31728 4.0796 8.57658 1.85915 1.71737 1.95415 1.79697 1.53668 2.99522 1.1804 1.13766 1.84975 1.2433 1.09747 1.85375 1.27459 1.1503 1.45518 2.37664 2.26904 7.80088
EOD
set multiplot layout 1,3 margins 0.05, 0.7908496732026143, 0.12, 0.88 spacing 0.05, 0.1 title "grain_htab against the baselines and anchors: throughput by threads (1M-key universe, 500k entries)"
set xlabel "threads"
set logscale x 2
set xtics ("1" 1, "2" 2, "4" 4)
set xrange [0.7692307692307692:5.2]
set yrange [0:*]
set object 1 rect from 2.8284271247461903, graph 0 to 5.2, graph 1 behind fc rgb '#f1e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed' at 5.2, graph 0.98 right offset -0.5,0 tc rgb '#a05050'
set title "90% lookup, 5% insert, 5% remove"
set ylabel 'million operations/s, median, bars min–max'
unset key
plot $read90 using 1:2:3:4 with yerrorlines lw 2.5 pt 5 lc rgb '#1a5fb4' title "grain/1 (one stripe)", \
     $read90 using 1:5:6:7 with yerrorlines lw 2.5 pt 7 lc rgb '#e66100' title "grain/256", \
     $read90 using 1:8:9:10 with yerrorlines lw 2.5 pt 9 lc rgb '#26a269' title "grain-qsbr/256 (RCU lookups, qsbr)", \
     $read90 using 1:11:12:13 with yerrorlines lw 2.5 pt 11 lc rgb '#a51d2d' title "grain-rcu/256 (RCU lookups)", \
     $read90 using 1:14:15:16 with yerrorlines lw 1.5 pt 5 lc rgb '#613583' title "cds_lfht (liburcu)", \
     $read90 using 1:17:18:19 with yerrorlines lw 1.5 pt 7 lc rgb '#986a44' title "ck_ht (ConcurrencyKit)", \
     $read90 using 1:20:21:22 with yerrorlines lw 1.5 pt 9 lc rgb '#5e5c64' title "mutex baseline (1 lock)", \
     $read90 using 1:23:24:25 with yerrorlines lw 1.5 pt 11 lc rgb '#c061cb' title "striped baseline (256 spinlocks)"
set title "50% lookup, 25% insert, 25% remove"
unset ylabel
unset key
plot $mix50 using 1:2:3:4 with yerrorlines lw 2.5 pt 5 lc rgb '#1a5fb4' title "grain/1 (one stripe)", \
     $mix50 using 1:5:6:7 with yerrorlines lw 2.5 pt 7 lc rgb '#e66100' title "grain/256", \
     $mix50 using 1:8:9:10 with yerrorlines lw 2.5 pt 9 lc rgb '#26a269' title "grain-qsbr/256 (RCU lookups, qsbr)", \
     $mix50 using 1:11:12:13 with yerrorlines lw 2.5 pt 11 lc rgb '#a51d2d' title "grain-rcu/256 (RCU lookups)", \
     $mix50 using 1:14:15:16 with yerrorlines lw 1.5 pt 5 lc rgb '#613583' title "cds_lfht (liburcu)", \
     $mix50 using 1:17:18:19 with yerrorlines lw 1.5 pt 7 lc rgb '#986a44' title "ck_ht (ConcurrencyKit)", \
     $mix50 using 1:20:21:22 with yerrorlines lw 1.5 pt 9 lc rgb '#5e5c64' title "mutex baseline (1 lock)", \
     $mix50 using 1:23:24:25 with yerrorlines lw 1.5 pt 11 lc rgb '#c061cb' title "striped baseline (256 spinlocks)"
set title "churn: every op inserts into a full table and evicts"
unset ylabel
set key at screen 0.8008496732026144, 0.86 left top
plot $churn using 1:2:3:4 with yerrorlines lw 2.5 pt 5 lc rgb '#1a5fb4' title "grain/1 (one stripe)", \
     $churn using 1:5:6:7 with yerrorlines lw 2.5 pt 7 lc rgb '#e66100' title "grain/256", \
     $churn using 1:8:9:10 with yerrorlines lw 2.5 pt 9 lc rgb '#26a269' title "grain-qsbr/256 (RCU lookups, qsbr)", \
     $churn using 1:11:12:13 with yerrorlines lw 2.5 pt 11 lc rgb '#a51d2d' title "grain-rcu/256 (RCU lookups)", \
     $churn using 1:14:15:16 with yerrorlines lw 1.5 pt 5 lc rgb '#613583' title "cds_lfht (liburcu)", \
     $churn using 1:17:18:19 with yerrorlines lw 1.5 pt 7 lc rgb '#986a44' title "ck_ht (ConcurrencyKit)", \
     $churn using 1:20:21:22 with yerrorlines lw 1.5 pt 9 lc rgb '#5e5c64' title "mutex baseline (1 lock)", \
     $churn using 1:23:24:25 with yerrorlines lw 1.5 pt 11 lc rgb '#c061cb' title "striped baseline (256 spinlocks)"
unset multiplot
