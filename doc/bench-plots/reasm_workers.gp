# SPDX-License-Identifier: BSD-2-Clause
# reasm_workers.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot reasm_workers.gp
set terminal pngcairo size 1100,800 noenhanced font "sans,10"
set output "reasm_workers.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$w0 << EOD
1 23.4447 22.0408 31.0806 24.3066 21.0982 26.3019
2 19.4374 16.9679 23.5881 19.4558 16.0692 38.1773
4 18.1455 15.3754 19.7178 18.6401 18.3435 32.7677
EOD
$w1 << EOD
1 21.803 18.8338 36.1018 27.4426 19.1756 32.946
2 5.10144 4.73835 23.1833 5.88287 4.76837 21.4609
4 9.04326 7.66192 24.6508 10.2974 9.15836 26.204
EOD
$w2 << EOD
1 17.3932 16.5261 21.79 18.3624 15.6135 22.5263
2 13.2411 11.8541 15.6268 13.0907 12.3508 23.6538
4 12.1441 11.6618 21.2786 13.3306 12.7265 22.2548
EOD
$w3 << EOD
1 17.2789 14.821 23.7358 15.8832 14.2041 19.9434
2 5.74358 5.42218 14.1491 5.93523 5.13505 15.2053
4 8.27263 7.5084 16.8975 9.07304 8.1681 9.56717
EOD
set multiplot layout 2,2 margins 0.08, 0.98, 0.14, 0.90 spacing 0.08, 0.14 title "Fragment reassembly (examples/reasm engine, in memory): one lock against per-bucket-group locks; median, bars min–max"
set xlabel "workers (threads)"
set logscale x 2
set xtics ("1" 1, "2" 2, "4" 4)
set xrange [0.7692307692307692:5.2]
set yrange [0:*]
set object 1 rect from 2.8284271247461903, graph 0 to 5.2, graph 1 behind fc rgb '#f1e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed' at 5.2, graph 0.98 right offset -0.5,0 tc rgb '#a05050'
set ylabel 'Gbit/s reassembled'
set title "64K"
set key at screen 0.5, screen 0.02 center bottom horizontal maxcols 4 width 2
plot $w0 using 1:2:3:4 with yerrorlines lw 2.5 pt 5 lc rgb '#e66100' title "one lock (1 stripe)", \
     $w0 using 1:5:6:7 with yerrorlines lw 2.5 pt 7 lc rgb '#1a5fb4' title "64 stripes"
set title "3F"
unset key
plot $w1 using 1:2:3:4 with yerrorlines lw 2.5 pt 5 lc rgb '#e66100' title "one lock (1 stripe)", \
     $w1 using 1:5:6:7 with yerrorlines lw 2.5 pt 7 lc rgb '#1a5fb4' title "64 stripes"
set title "64K+DoS"
unset key
plot $w2 using 1:2:3:4 with yerrorlines lw 2.5 pt 5 lc rgb '#e66100' title "one lock (1 stripe)", \
     $w2 using 1:5:6:7 with yerrorlines lw 2.5 pt 7 lc rgb '#1a5fb4' title "64 stripes"
set title "3F+DoS"
unset key
plot $w3 using 1:2:3:4 with yerrorlines lw 2.5 pt 5 lc rgb '#e66100' title "one lock (1 stripe)", \
     $w3 using 1:5:6:7 with yerrorlines lw 2.5 pt 7 lc rgb '#1a5fb4' title "64 stripes"
unset multiplot
