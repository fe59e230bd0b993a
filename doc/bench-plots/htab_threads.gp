# SPDX-License-Identifier: BSD-2-Clause
# htab_threads.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot htab_threads.gp
set terminal pngcairo size 1530,560 noenhanced font "sans,10"
set output "htab_threads.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$read90 << EOD
1 9.93233 7.81636 12.2041 9.26576 7.29425 11.594 9.57197 7.33973 11.7425 8.77435 4.5425 10.2308 3.50297 1.83647 4.24124 8.44157 4.48312 8.8037 6.99928 5.18505 8.71294 10.0064 6.93175 11.2679
2 8.33717 4.96874 9.97134 16.77 13.2529 19.446 16.8471 12.3328 18.543 13.599 12.3645 16.4589 5.16412 3.83762 5.53708 9.47514 8.10903 12.1766 2.14991 1.24498 3.44741 19.3364 12.84 22.4293
4 7.76576 6.38335 11.1736 14.7042 13.9697 16.3238 15.1659 11.2298 17.673 11.9557 10.4444 14.6584 4.32305 2.55543 5.77172 9.26827 6.99935 10.8974 2.43536 2.16225 3.44622 17.2706 14.8768 21.7747
EOD
$mix50 << EOD
1 6.40187 6.06306 7.74188 6.80988 5.36758 7.92249 5.3448 4.51787 6.96161 4.77228 3.48854 5.8571 2.51642 1.19135 2.61395 5.35772 3.22379 5.96271 6.15249 5.27541 8.35709 8.59419 7.10136 10.1986
2 5.34459 4.08612 6.59274 10.122 8.40695 12.0185 8.66085 7.43854 12.1792 6.97441 4.19667 7.96515 3.68496 3.30775 3.82014 2.98328 1.66625 3.50062 1.70967 1.22089 3.30364 13.9579 11.9185 14.5903
4 5.48519 3.75329 5.88654 8.38904 7.35886 9.79434 5.98637 3.41018 8.36441 5.80005 3.41395 6.57604 3.13564 1.89449 3.83727 3.06333 2.05358 3.68224 1.74992 1.40295 2.32938 13.0082 11.5827 19.0906
EOD
$churn << EOD
1 4.4189 2.94622 4.70842 3.89323 3.50614 4.11987 1.74358 1.37928 1.85519 1.65704 1.30094 1.86177 0.839594 0.808163 0.99781 3.02179 2.13226 3.20372 4.37647 1.92053 4.74689 4.67397 2.27338 6.6908
2 2.39426 2.22635 2.76489 3.80862 3.39822 4.11738 1.70703 1.17925 2.45613 1.51178 1.16808 1.86247 1.03106 0.98906 1.26406 0.799086 0.67144 1.13673 0.863367 0.495633 1.04176 5.55 1.94071 6.37803
4 2.98051 2.6467 3.18864 3.95965 3.76389 6.43934 1.42618 1.07841 2.29203 1.3357 0.99729 1.70416 0.992389 0.644252 1.06563 0.976105 0.934138 1.12564 1.21458 1.11864 1.47321 5.52094 2.08409 5.86681
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
