# SPDX-License-Identifier: BSD-2-Clause
# reasm_workers.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot reasm_workers.gp
set terminal pngcairo size 1100,800 noenhanced font "sans,10"
set output "reasm_workers.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$w0 << EOD
1 34.5923 32.9638 35.8688 32.5757 30.2507 34.0029
2 32.4046 30.2009 34.6569 32.9889 26.8803 37.9835
4 28.7619 12.5511 33.5551 33.5835 13.6101 37.1631
EOD
$w1 << EOD
1 35.926 29.014 38.8681 35.7483 31.5923 36.6502
2 23.3782 21.6454 24.7194 22.0496 7.16885 23.6012
4 24.2587 8.62304 27.8983 25.3979 18.108 28.9539
EOD
$w2 << EOD
1 21.0863 17.2408 25.2906 21.863 19.8329 24.0293
2 22.7566 11.0985 26.9977 25.0848 17.6273 25.8222
4 20.5308 10.2517 24.3909 21.8091 11.4132 26.7013
EOD
$w3 << EOD
1 22.2006 17.8744 24.7289 19.9842 17.8325 21.792
2 19.0799 7.02684 21.4059 18.3818 6.79906 21.2118
4 18.9338 7.42291 22.3334 18.5461 9.44789 23.1583
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
