# SPDX-License-Identifier: BSD-2-Clause
# htab_threads.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot htab_threads.gp
set terminal pngcairo size 1530,560 noenhanced font "sans,10"
set output "htab_threads.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$read90 << EOD
1 17.1953 12.8577 18.6032 14.151 10.0442 16.2749 14.474 10.1402 16.3201 12.6638 7.96845 15.0798 3.55901 2.56004 5.03906 9.4315 7.24611 11.9121 9.40095 7.30032 11.2591 16.0456 8.76719 16.3767
2 9.67722 7.70081 10.7701 23.4888 20.6346 26.4502 26.9052 21.0333 34.1581 18.686 15.514 21.5093 6.07486 4.31488 6.97979 10.9008 8.66642 13.7939 5.23503 3.46816 5.96186 24.5309 20.4731 31.4853
4 11.1874 9.86847 11.8472 22.3125 16.0836 24.6924 26.5377 19.6207 32.7822 16.2786 14.1329 20.556 7.14432 4.73831 8.54971 11.4001 9.47392 14.3354 4.6553 2.71403 5.77287 27.4249 22.1943 32.1849
EOD
$mix50 << EOD
1 10.5977 6.74383 11.0804 7.97141 6.01338 8.69294 7.5372 5.48344 8.38363 6.82469 4.83967 8.32452 2.75243 1.97373 3.24578 6.59897 4.70402 7.88826 6.99648 4.59062 7.79496 9.57699 6.92374 12.6223
2 6.34393 5.56462 7.14703 15.0707 12.8901 16.9591 12.8438 9.34253 15.4158 11.2626 8.85247 13.0347 4.58431 4.37129 5.74341 4.34247 3.49046 5.39367 4.15707 2.79851 5.60529 22.2098 20.6308 25.3985
4 7.41589 6.00872 8.19708 14.9201 11.8301 16.4769 12.2892 9.33314 13.4433 9.9543 8.25673 12.5302 4.64773 4.21772 5.14307 5.15521 4.0113 5.65875 3.82041 2.99779 4.37025 20.016 16.2646 23.8877
EOD
$churn << EOD
1 4.40708 3.12066 5.46413 2.51629 2.19811 3.3863 1.67108 1.55257 2.03347 1.39127 1.23578 1.53831 1.08321 0.852355 1.37591 3.84269 3.40013 4.13279 4.89017 3.3207 6.63703 6.0914 3.86224 7.85581
2 2.12834 2.02453 3.09827 4.17745 3.85351 4.75119 2.09828 1.95456 2.31537 2.00561 1.76081 2.4384 1.41265 1.30446 1.48801 2.30626 2.14429 2.63658 3.02107 1.76689 3.40172 4.12138 3.6276 8.78409
4 2.32558 2.17661 2.68263 3.97312 3.24339 4.74871 1.95862 1.8885 2.40499 1.87467 1.82809 2.31691 1.31257 1.2725 1.4574 2.33519 2.10009 2.64871 2.553 1.44086 3.13289 4.08375 3.79954 4.39024
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
