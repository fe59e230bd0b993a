# SPDX-License-Identifier: BSD-2-Clause
# prio_unpinned.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_unpinned.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_unpinned.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 6.94709 6.28649 27.6103 9.9583 9.65033 31.7139 4.94768 4.37873 6.30502 7.46004 6.32366 23.5392 3.6304 3.02909 4.29099 3.7699 3.58595 3.95678 2.64662 1.73756 4.4009 1.435 1.32401 1.48485
2 4.0402 3.60906 6.84109 6.62393 5.16376 9.57878 2.8596 2.68067 3.9828 5.28075 3.79165 5.89105 4.13719 3.62024 4.73825 4.04431 3.71517 22.2929 1.56881 1.26538 3.25301 2.65032 1.0944 3.26818
4 2.82606 2.35059 14.2783 3.66338 3.09481 9.04795 2.27048 1.52262 10.7493 2.95445 2.39027 3.02102 3.68856 3.33229 4.07642 3.90308 3.34301 11.159 1.41441 0.834534 2.04831 0.59848 0.507665 0.675314
8 1.78267 1.27752 2.50026 2.19392 2.01307 8.60952 1.24209 0.844476 1.3067 1.66123 1.22423 2.11756 3.40155 2.8965 17.1705 3.67601 3.49415 4.95276 0.666866 0.484698 0.706556 0.295184 0.184697 0.989165
12 1.34495 0.9572 3.79864 1.59557 1.44787 1.78065 0.770679 0.662574 1.62584 1.17742 0.92439 2.87152 3.46422 2.44417 3.91839 3.11629 2.46325 3.82434 0.423879 0.310871 0.746476 0.313937 0.149942 0.474673
EOD
set title "grain_prio against a locked pfifo_fast, three bands: unpinned (no pinning: the scheduler places every thread)"
set ylabel 'million items dequeued/s, median, bars min–max'
set xlabel "producers (threads = producers + 1 consumer), log scale"
set logscale x 2
set xtics ("1" 1, "2" 2, "4" 4, "8" 8, "12" 12)
set xrange [0.7692307692307692:15.600000000000001]
set yrange [0:*]
set object 1 rect from 1.4142135623730951, graph 0 to 15.600000000000001, graph 1 behind fc rgb '#f1e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed' at 15.600000000000001, graph 0.98 right offset -0.5,0 tc rgb '#a05050'
plot $d using 1:2:3:4 with yerrorlines lw 2.5 dt 1 pt 5 lc rgb '#1a5fb4' title "grain_prio, single", \
     $d using 1:5:6:7 with yerrorlines lw 2.5 dt 2 pt 5 lc rgb '#1a5fb4' title "grain_prio, burst32", \
     $d using 1:8:9:10 with yerrorlines lw 1.5 dt 1 pt 7 lc rgb '#e66100' title "grain_prio, 8 bands (bits), single", \
     $d using 1:11:12:13 with yerrorlines lw 1.5 dt 2 pt 7 lc rgb '#e66100' title "grain_prio, 8 bands (bits), burst32", \
     $d using 1:14:15:16 with yerrorlines lw 1.5 dt 1 pt 9 lc rgb '#26a269' title "spinlock baseline, single", \
     $d using 1:17:18:19 with yerrorlines lw 1.5 dt 2 pt 9 lc rgb '#26a269' title "spinlock baseline, burst32", \
     $d using 1:20:21:22 with yerrorlines lw 1.5 dt 1 pt 11 lc rgb '#a51d2d' title "mutex baseline, single", \
     $d using 1:23:24:25 with yerrorlines lw 1.5 dt 2 pt 11 lc rgb '#a51d2d' title "mutex baseline, burst32"
