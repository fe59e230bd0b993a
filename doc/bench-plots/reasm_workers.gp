# SPDX-License-Identifier: BSD-2-Clause
# reasm_workers.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot reasm_workers.gp
set terminal pngcairo size 1100,800 noenhanced font "sans,10"
set output "reasm_workers.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$w0 << EOD
1 32.5109 24.8195 36.4954 31.1048 22.9182 34.7979
2 22.0131 14.0932 22.7897 18.3788 15.9221 23.384
4 17.1816 7.60679 20.0835 20.5611 13.2987 21.6798
EOD
$w1 << EOD
1 30.0137 26.4518 34.3742 27.2269 21.5389 31.9843
2 7.78698 6.44147 9.27401 7.60337 6.05573 9.52443
4 9.3055 7.40611 9.80434 8.91756 6.70398 10.615
EOD
$w2 << EOD
1 21.1497 19.537 23.9241 22.326 18.24 23.5791
2 13.0228 8.53272 14.3043 13.4118 10.7346 14.0939
4 11.3066 7.64473 12.7804 12.7463 10.712 13.7135
EOD
$w3 << EOD
1 22.5087 21.4516 25.346 20.663 17.1332 25.3407
2 6.31992 5.53034 6.58609 6.36745 5.73729 6.51878
4 7.65025 5.98529 8.44988 8.1013 6.26423 9.13175
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
