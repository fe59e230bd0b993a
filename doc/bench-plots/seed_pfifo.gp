# SPDX-License-Identifier: BSD-2-Clause
# seed_pfifo.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot seed_pfifo.gp
set terminal pngcairo size 1680,660 noenhanced font "sans,10"
set output "seed_pfifo.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$seed << EOD
0 1 1.418168 1.26945 0.895133721815751
1 2 1.58739 1.553408 0.9785925323959456
2 4 1.084961 1.683639 1.5517967926957743
3 8 0.989636 1.522723 1.538669773532895
4 12 1.014018 1.348172 1.3295345841987025
EOD
$ours << EOD
0 1 4.10863 3.77061 17.0522 7.35016 4.47803 27.4693 18.1679 3.30857 19.2388 30.8447 8.97563 34.8044
1 2 16.1348 3.60703 17.0501 7.78929 4.66584 26.663 6.09915 3.63951 19.1159 10.7252 7.6737 24.6704
2 4 4.02387 3.14615 17.3182 7.65707 5.23101 20.0406 17.4927 3.76748 18.181 15.2497 6.26175 20.4925
3 8 7.04106 3.15106 16.9929 5.63337 4.94112 14.3349 17.4973 3.60154 18.1118 7.46588 5.81944 15.3787
4 12 4.71822 3.5186 16.7611 5.265 4.07924 12.094 17.2374 3.16231 17.6623 12.6209 5.14552 13.7619
EOD
$ratio << EOD
0 1 0.8951 1.789 1.698
1 2 0.9786 0.4828 1.758
2 4 1.552 1.903 0.8718
3 8 1.539 0.8001 0.4267
4 12 1.33 1.116 0.7322
EOD
set multiplot layout 1,3 margins 0.06, 0.98, 0.30, 0.88 spacing 0.07, 0.1 title "The lockless-pfifo_fast table (netdev, July 2016) beside grain_prio"
set label 99 "Source: netdev, 14 July 2016, \"Re: [RFC PATCH v2 08/10] net: sched: pfifo_fast use alf_queue\" (John Fastabend, quoting Alexei Starovoitov's table; Message-ID 57882945.4090101@gmail.com)" at screen 0.005, screen 0.012 left font ',8' tc rgb '#5e5c64'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set yrange [0:*]
set key at graph 0, graph -0.16 left top vertical maxrows 6
set xtics ("1" 0, "2" 1, "4" 2, "8" 3, "12" 4)
set xlabel 'pktgen threads'
set title "Seed: pktgen through pfifo_fast as root qdisc\n(the poster's machine, in the kernel)"
set ylabel 'million packets/s'
plot $seed using 3:xtic(2) lc rgb '#9a9996' title 'original (one qdisc lock)', \
     '' using 4 lc rgb '#5e5c64' title 'lockless (skb_array per band)'
unset label 99
set xlabel 'producers (1 consumer on its own core)'
set title "Ours: one consumer, this machine\n(oversubscribed from 2 producers on)"
set ylabel 'million items dequeued/s, median, bars min–max'
set style histogram errorbars gap 1 lw 1
plot $ours using 3:4:5:xtic(2) lc rgb '#f9c19a' title 'spinlock baseline, single', \
     '' using 6:7:8 lc rgb '#1a5fb4' title 'grain_prio, single', \
     '' using 9:10:11 lc rgb '#e66100' title 'spinlock baseline, burst32', \
     '' using 12:13:14 lc rgb '#99c1f1' title 'grain_prio, burst32'
set style histogram clustered gap 1
set xlabel 'threads (seed) / producers (ours)'
set title 'Ratios: lockless / locked'
set ylabel 'ratio (1 = no change)'
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb 'black' front
plot $ratio using 3:xtic(2) lc rgb '#5e5c64' title 'seed: lockless / original', \
     '' using 4 lc rgb '#1a5fb4' title 'ours single: grain_prio / spinlock baseline', \
     '' using 5 lc rgb '#99c1f1' title 'ours burst32: grain_prio / spinlock baseline'
unset multiplot
# Seed: netdev, 14 July 2016, "Re: [RFC PATCH v2 08/10] net: sched: pfifo_fast use alf_queue" (John Fastabend, quoting Alexei Starovoitov's table; Message-ID 57882945.4090101@gmail.com)
