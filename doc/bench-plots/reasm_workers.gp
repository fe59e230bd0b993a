# SPDX-License-Identifier: BSD-2-Clause
# reasm_workers.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot reasm_workers.gp
set terminal pngcairo size 1100,800 noenhanced font "sans,10"
set output "reasm_workers.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$w0 << EOD
1 20.8341 19.1491 26.8428 20.7952 18.5734 26.8724
2 20.8384 15.4379 34.6507 19.1787 16.045 34.7589
4 17.6785 16.8598 18.5781 17.9402 16.5083 26.1083
EOD
$w1 << EOD
1 19.7364 18.2344 27.9896 18.6494 16.9888 27.6773
2 5.27511 4.24329 21.0203 5.49033 4.79713 19.5664
4 8.47287 7.61024 9.44156 9.24119 8.40729 9.78281
EOD
$w2 << EOD
1 16.9225 15.342 20.838 15.2662 14.6352 20.8412
2 13.2276 10.6594 14.1804 12.3186 10.2239 21.1641
4 12.9977 10.2508 19.3809 12.2029 10.5493 20.8551
EOD
$w3 << EOD
1 15.159 13.8896 22.4542 14.2593 13.2787 17.3765
2 5.4525 4.94486 13.1719 5.38199 4.50878 15.2195
4 7.69788 6.66354 15.5444 8.58678 7.67331 15.858
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
