# SPDX-License-Identifier: BSD-2-Clause
# seed_pfifo.gp - drawn by bench/report.py from build/bench-results; run: gnuplot seed_pfifo.gp
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
0 1 0.573403 0.203597 0.943208 2.29006 1.99273 2.58739 0.339947 0.254414 0.425479 1.21476 1.21476 1.21476
1 2 0.716595 0.716595 0.716595 1.20174 1.20174 1.20174 0.340673 0.294798 0.386548 0.547121 0.470973 0.783538
2 4 0.363979 0.363979 0.363979 0.578011 0.353125 1.47903 0.269073 0.269073 0.269073 0.51797 0.447766 0.580507
3 8 0.279514 0.185464 0.323482 0.592468 0.315703 0.869233 0.171107 0.171107 0.171107 0.522417 0.522417 0.522417
4 12 0.177801 0.167468 0.188133 0.422199 0.278918 0.56548 0.0930968 0.0800665 0.106127 0.217055 0.217055 0.217055
EOD
$ratio << EOD
0 1 0.8951 3.994 3.573
1 2 0.9786 1.677 1.606
2 4 1.552 1.588 1.925
3 8 1.539 2.12 3.053
4 12 1.33 2.375 2.331
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
