# SPDX-License-Identifier: BSD-2-Clause
# seed_frag.gp - drawn by bench/report.py from build/bench-results; run: gnuplot seed_frag.gp
set terminal pngcairo size 1860,660 noenhanced font "sans,10"
set output "seed_frag.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$seed << EOD
0 20G64K 18848.7 18841.5 18838.0 18321.5 17247.3 17471.3
1 20G3F 13230.1 13156.8 13490.5 11250.4 11492.6 11298.7
2 20G64K+DoS 4103.04 4101.08 4405.11 3635.34 3994.74 3818.05
3 20G3F+DoS 5310.36 5314.57 6814.72 5160.13 6405.29 6102.11
4 20G64K+MQ 130.0 129.0 196.6 119.1 166.7 165.7
5 20G3F+MQ 440.2 424.2 461.6 405.2 413.6 406.3
EOD
$ours << EOD
0 64K 4.64453 4.11864 9.96027 7.78161 6.47955 9.08368 0.9998 1.67544
1 3F 2.71688 2.10272 3.33105 4.26056 4.06586 4.45527 1.025 1.56818
2 64K+DoS 5.53352 5.16727 10.5308 6.51534 5.82697 7.20371 1.074 1.17743
3 3F+DoS 6.45369 4.673 8.23439 5.67623 4.79839 6.74865 1.282 0.879532
EOD
set multiplot layout 1,3 margins 0.06, 0.98, 0.30, 0.88 spacing 0.07, 0.1 title "The frag-queue per-hash-bucket locking table (netdev, April 2013) beside examples/reasm"
set label 99 "Source: netdev, April 2013, \"Re: [net-next PATCH 3/3] net: frag queue per hash bucket locking\" (Jesper Dangaard Brouer)" at screen 0.005, screen 0.012 left font ',8' tc rgb '#5e5c64'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set yrange [0:*]
set key at graph 0, graph -0.16 left top vertical maxrows 6
set title 'Seed: 20 Gbit/s UDP fragment tests, rows A-F'
set ylabel 'Mbit/s'
set xlabel 'test' offset 0,-1
set key maxrows 3 at graph 0, graph -0.22
set xtics ("20G64K" 0, "20G3F" 1, "20G64K\n+DoS" 2, "20G3F\n+DoS" 3, "20G64K\n+MQ" 4, "20G3F\n+MQ" 5)
plot $seed using 3 lc rgb '#c0bfbc' title "A: Patch-02", \
     '' using 4 lc rgb '#9a9996' title "B: 1b5ab0de, one lock", \
     '' using 5 lc rgb '#1a5fb4' title "C: Patch-03v1, per-bucket locks", \
     '' using 6 lc rgb '#77767b' title "D: a210576c", \
     '' using 7 lc rgb '#5e5c64' title "E: Patch-03 with _bh", \
     '' using 8 lc rgb '#3d3846' title "F: Patch-03 without _bh"
set xtics autofreq
unset label 99
set title "Ours: examples/reasm in memory, 2 workers by datagram, this machine\n(not comparable with the seed's NIC figures)"
set ylabel 'Gbit/s reassembled, median, bars min–max'
set xlabel 'workload' offset 0,0
set key maxrows 6 at graph 0, graph -0.16
set style histogram errorbars gap 1 lw 1
plot $ours using 3:4:5:xtic(2) lc rgb '#f9c19a' title 'ours: one lock', \
     '' using 6:7:8 lc rgb '#1a5fb4' title 'ours: 64 stripes'
set style histogram clustered gap 1
set title "Ratios, each against its own one-lock figure:\nper-bucket locks / one lock"
set ylabel 'ratio (1 = no change)'
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb 'black' front
plot $ours using 9:xtic(2) lc rgb '#5e5c64' title 'seed: row C / row B', \
     '' using 10 lc rgb '#1a5fb4' title 'ours: 64 stripes / one lock'
unset multiplot
# Seed: netdev, April 2013, "Re: [net-next PATCH 3/3] net: frag queue per hash bucket locking" (Jesper Dangaard Brouer)
