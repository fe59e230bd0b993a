# SPDX-License-Identifier: BSD-2-Clause
# htab_threads.gp - drawn by bench/report.py from build/bench-results; run: gnuplot htab_threads.gp
set terminal pngcairo size 1530,560 noenhanced font "sans,10"
set output "htab_threads.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$read90 << EOD
1 3.65031 3.1993 4.10132 3.5569 2.92562 4.18817 4.42497 3.83182 5.01812 2.82761 2.82761 2.82761 1.24255 0.967145 1.51796 2.93473 1.54432 3.28597 0.980808 0.968506 1.56601 2.19456 1.60359 3.42004 2.33944 1.00058 3.67831 3.77038 2.45545 3.80615 3.03961 3.03961 3.03961
2 1.7857 1.54194 1.87334 1.96682 1.55221 2.38144 4.14482 4.14482 4.14482 1.98165 1.98165 1.98165 1.36547 0.955371 1.77556 2.4228 2.41482 2.43079 1.50118 1.13104 1.931 1.171 0.839884 1.50212 1.54593 1.54514 1.54673 2.87876 2.87876 2.87876 2.42643 1.98325 2.8696
4 4.36946 3.90527 4.83364 2.2576 2.02858 2.48662 2.97452 2.8437 3.10533 3.59023 3.59023 3.59023 1.33653 1.24536 2.19947 1.67636 1.60467 1.74806 1.52335 1.38354 1.66316 0.787812 0.787812 0.787812 3.64474 3.2602 4.02928 1.7387 1.4322 1.82227 1.79894 1.79894 1.79894
EOD
$mix50 << EOD
1 2.98622 2.2989 3.00523 2.43026 1.69088 3.16963 2.52412 2.52412 2.52412 2.39075 1.29334 3.48817 0.74178 0.74178 0.74178 1.96579 1.77652 2.15506 2.02129 2.02129 2.02129 2.94835 1.42978 4.46692 1.55765 1.55765 1.55765 2.68676 2.68676 2.68676 1.60698 1.48066 1.7333
2 1.50344 1.23259 1.77429 1.44012 1.15877 1.6524 2.15244 1.80674 2.49813 1.56674 1.52164 1.61183 1.36304 1.31317 2.01162 1.90939 1.58909 2.22969 0.901168 0.874558 1.49372 NaN NaN NaN 1.47793 0.943535 2.14389 1.72502 1.22528 2.22475 NaN NaN NaN
4 2.54097 1.33599 3.74594 NaN NaN NaN 1.60818 1.49678 1.71959 1.85298 1.81402 1.89195 0.870425 0.47114 1.54173 2.97303 2.97303 2.97303 0.842359 0.821147 0.863571 0.833095 0.778072 0.888118 1.87359 0.804294 2.07816 1.68744 1.19109 2.18378 1.52357 1.50452 1.54262
EOD
$churn << EOD
1 1.99822 1.27403 2.72241 1.13282 1.13282 1.13282 0.475914 0.475914 0.475914 0.974346 0.942196 1.0065 0.384316 0.384316 0.384316 1.14335 1.01842 1.33963 1.18978 1.18978 1.18978 0.886085 0.843866 2.03792 1.65875 1.65875 1.65875 1.24125 0.882733 1.47118 0.535687 0.535687 0.535687
2 1.17881 1.0975 1.26011 0.73179 0.626694 0.799104 NaN NaN NaN 0.530401 0.32956 0.545953 0.48862 0.415244 0.561997 0.618437 0.618437 0.618437 0.670622 0.530399 0.810845 0.619589 0.619589 0.619589 0.833712 0.833712 0.833712 0.545807 0.496485 0.595128 0.707447 0.62651 0.9885
4 1.40923 0.734513 1.50118 1.16284 0.853109 1.47257 0.654906 0.486391 0.82342 0.641234 0.544694 1.01187 0.458248 0.448371 0.468125 0.846863 0.846863 0.846863 1.23855 1.18303 1.29408 0.675775 0.625028 0.726521 1.03302 1.03302 1.03302 1.70498 1.20099 2.11057 0.561482 0.340073 0.782891
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
     $read90 using 1:20:21:22 with yerrorlines lw 1.5 pt 9 lc rgb '#5e5c64' title "MichaelHashMap (libcds)", \
     $read90 using 1:23:24:25 with yerrorlines lw 1.5 pt 11 lc rgb '#c061cb' title "cuckoohash_map (libcuckoo)", \
     $read90 using 1:26:27:28 with yerrorlines lw 1.5 pt 5 lc rgb '#2ec27e' title "mutex baseline (1 lock)", \
     $read90 using 1:29:30:31 with yerrorlines lw 1.5 pt 7 lc rgb '#f5c211' title "striped baseline (256 spinlocks)", \
     $read90 using 1:32:33:34 with yerrorlines lw 1.5 pt 9 lc rgb '#1a5fb4' title "concurrent_hash_map (oneTBB)"
set title "50% lookup, 25% insert, 25% remove"
unset ylabel
unset key
plot $mix50 using 1:2:3:4 with yerrorlines lw 2.5 pt 5 lc rgb '#1a5fb4' title "grain/1 (one stripe)", \
     $mix50 using 1:5:6:7 with yerrorlines lw 2.5 pt 7 lc rgb '#e66100' title "grain/256", \
     $mix50 using 1:8:9:10 with yerrorlines lw 2.5 pt 9 lc rgb '#26a269' title "grain-qsbr/256 (RCU lookups, qsbr)", \
     $mix50 using 1:11:12:13 with yerrorlines lw 2.5 pt 11 lc rgb '#a51d2d' title "grain-rcu/256 (RCU lookups)", \
     $mix50 using 1:14:15:16 with yerrorlines lw 1.5 pt 5 lc rgb '#613583' title "cds_lfht (liburcu)", \
     $mix50 using 1:17:18:19 with yerrorlines lw 1.5 pt 7 lc rgb '#986a44' title "ck_ht (ConcurrencyKit)", \
     $mix50 using 1:20:21:22 with yerrorlines lw 1.5 pt 9 lc rgb '#5e5c64' title "MichaelHashMap (libcds)", \
     $mix50 using 1:23:24:25 with yerrorlines lw 1.5 pt 11 lc rgb '#c061cb' title "cuckoohash_map (libcuckoo)", \
     $mix50 using 1:26:27:28 with yerrorlines lw 1.5 pt 5 lc rgb '#2ec27e' title "mutex baseline (1 lock)", \
     $mix50 using 1:29:30:31 with yerrorlines lw 1.5 pt 7 lc rgb '#f5c211' title "striped baseline (256 spinlocks)", \
     $mix50 using 1:32:33:34 with yerrorlines lw 1.5 pt 9 lc rgb '#1a5fb4' title "concurrent_hash_map (oneTBB)"
set title "churn: every op inserts into a full table and evicts"
unset ylabel
set key at screen 0.8008496732026144, 0.86 left top
plot $churn using 1:2:3:4 with yerrorlines lw 2.5 pt 5 lc rgb '#1a5fb4' title "grain/1 (one stripe)", \
     $churn using 1:5:6:7 with yerrorlines lw 2.5 pt 7 lc rgb '#e66100' title "grain/256", \
     $churn using 1:8:9:10 with yerrorlines lw 2.5 pt 9 lc rgb '#26a269' title "grain-qsbr/256 (RCU lookups, qsbr)", \
     $churn using 1:11:12:13 with yerrorlines lw 2.5 pt 11 lc rgb '#a51d2d' title "grain-rcu/256 (RCU lookups)", \
     $churn using 1:14:15:16 with yerrorlines lw 1.5 pt 5 lc rgb '#613583' title "cds_lfht (liburcu)", \
     $churn using 1:17:18:19 with yerrorlines lw 1.5 pt 7 lc rgb '#986a44' title "ck_ht (ConcurrencyKit)", \
     $churn using 1:20:21:22 with yerrorlines lw 1.5 pt 9 lc rgb '#5e5c64' title "MichaelHashMap (libcds)", \
     $churn using 1:23:24:25 with yerrorlines lw 1.5 pt 11 lc rgb '#c061cb' title "cuckoohash_map (libcuckoo)", \
     $churn using 1:26:27:28 with yerrorlines lw 1.5 pt 5 lc rgb '#2ec27e' title "mutex baseline (1 lock)", \
     $churn using 1:29:30:31 with yerrorlines lw 1.5 pt 7 lc rgb '#f5c211' title "striped baseline (256 spinlocks)", \
     $churn using 1:32:33:34 with yerrorlines lw 1.5 pt 9 lc rgb '#1a5fb4' title "concurrent_hash_map (oneTBB)"
unset multiplot
