# SPDX-License-Identifier: BSD-2-Clause
# reasm_workers.gp - drawn by bench/report.py from build/bench-results/quick; run: gnuplot reasm_workers.gp
set terminal pngcairo size 1100,800 noenhanced font "sans,10"
set output "reasm_workers.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$w0 << EOD
1 43.5789 39.8047 47.353 49.9794 46.3299 53.6289
2 69.3267 40.235 87.099 94.012 84.8129 103.211
4 53.1101 53.1101 53.1101 36.256 22.8025 49.7095
EOD
$w1 << EOD
1 49.9802 49.9802 49.9802 39.1043 21.7784 56.4302
2 49.691 23.7642 75.6177 34.9922 34.9922 34.9922
4 41.7913 40.5422 43.0404 51.93 27.5608 76.2992
EOD
$w2 << EOD
1 26.6548 26.6548 26.6548 27.4937 24.6422 30.3453
2 30.6024 30.3205 30.8842 24.7426 24.7426 24.7426
4 32.994 18.2179 47.7702 30.4082 10.7108 50.1056
EOD
$w3 << EOD
1 23.2801 15.4987 31.0616 9.24389 9.24389 9.24389
2 17.4556 15.9088 44.8649 49.9622 49.9622 49.9622
4 9.11988 9.11988 9.11988 11.1066 10.4648 11.7484
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
