# SPDX-License-Identifier: BSD-2-Clause
# reasm_workers.gp - drawn by bench/report.py from build/bench-results; run: gnuplot reasm_workers.gp
set terminal pngcairo size 1100,800 noenhanced font "sans,10"
set output "reasm_workers.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$w0 << EOD
1 12.8113 7.72274 14.1676 11.7769 11.6515 11.9023
2 4.64453 4.11864 9.96027 7.78161 6.47955 9.08368
4 3.28559 2.07028 4.55483 4.88322 3.18833 6.57811
EOD
$w1 << EOD
1 13.1408 10.4772 15.8044 10.9923 8.11179 13.9699
2 2.71688 2.10272 3.33105 4.26056 4.06586 4.45527
4 2.37296 2.08033 7.78922 2.28793 2.13946 8.5028
EOD
$w2 << EOD
1 9.39638 9.39638 9.39638 6.90376 4.1214 8.45808
2 5.53352 5.16727 10.5308 6.51534 5.82697 7.20371
4 2.5111 2.32925 4.64184 3.44471 1.98675 5.22308
EOD
$w3 << EOD
1 6.40025 5.92363 6.87687 7.35106 6.44017 8.26195
2 6.45369 4.673 8.23439 5.67623 4.79839 6.74865
4 2.5753 2.09658 2.59929 5.079 2.05846 6.06374
EOD
set multiplot layout 2,2 margins 0.08, 0.98, 0.14, 0.90 spacing 0.08, 0.14 title "Fragment reassembly (examples/reasm engine, in memory): one lock against per-bucket-group locks; each datagram whole to one worker; median, bars min–max"
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
