# SPDX-License-Identifier: BSD-2-Clause
# reasm_workers.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot reasm_workers.gp
set terminal pngcairo size 1100,800 noenhanced font "sans,10"
set output "reasm_workers.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$w0 << EOD
1 37.5706 35.6761
2 28.0432 28.5586
4 23.8456 23.7698
EOD
$w1 << EOD
1 37.3555 32.1889
2 6.62284 6.98523
4 10.1979 11.292
EOD
$w2 << EOD
1 23.1404 21.7942
2 16.8079 14.4852
4 14.7144 15.3808
EOD
$w3 << EOD
1 23.5149 20.9789
2 6.78437 6.77661
4 9.35415 9.6527
EOD
set multiplot layout 2,2 title "Fragment reassembly (examples/reasm engine, in memory): one lock against per-bucket-group locks"
set xlabel 'workers (threads)'
set logscale x 2
set xtics ("1" 1, "2" 2, "4" 4)
set xrange [0.7692307692307692:5.2]
set yrange [0:*]
set object 1 rect from 2.8284271247461903, graph 0 to 5.2, graph 1 behind fc rgb '#f1e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed' at 5.2, graph 0.98 right offset -0.5,0 tc rgb '#a05050'
set ylabel 'Gbit/s reassembled, median'
set key below center horizontal
set title "64K"
plot $w0 using 1:2 with linespoints lw 2.5 pt 5 lc rgb '#e66100' title "one lock (1 stripe)", \
     $w0 using 1:3 with linespoints lw 2.5 pt 7 lc rgb '#1a5fb4' title "64 stripes"
set title "3F"
plot $w1 using 1:2 with linespoints lw 2.5 pt 5 lc rgb '#e66100' title "one lock (1 stripe)", \
     $w1 using 1:3 with linespoints lw 2.5 pt 7 lc rgb '#1a5fb4' title "64 stripes"
set title "64K+DoS"
plot $w2 using 1:2 with linespoints lw 2.5 pt 5 lc rgb '#e66100' title "one lock (1 stripe)", \
     $w2 using 1:3 with linespoints lw 2.5 pt 7 lc rgb '#1a5fb4' title "64 stripes"
set title "3F+DoS"
plot $w3 using 1:2 with linespoints lw 2.5 pt 5 lc rgb '#e66100' title "one lock (1 stripe)", \
     $w3 using 1:3 with linespoints lw 2.5 pt 7 lc rgb '#1a5fb4' title "64 stripes"
unset multiplot
