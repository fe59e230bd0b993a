# prio_own_core.gp - drawn by bench/plot.py from /work/main/build/bench-results; run: gnuplot prio_own_core.gp
set terminal pngcairo size 1100,600 noenhanced font "sans,10"
set output "prio_own_core.png"
set grid ytics lc rgb '#dddddd'
set key outside right top vertical Left reverse samplen 2 spacing 1.1
set border 3
set tics nomirror
$d << EOD
1 6.93983 4.80374 11.7862 11.7165 4.10334 3.78906
2 7.17654 5.47526 2.65806 11.1204 4.43315 7.01598
4 7.33698 6.66185 10.8417 6.17552 3.62078 4.48455
8 7.66273 4.29431 3.91562 2.51246 1.02417 4.05767
12 11.9149 4.30561 11.2555 11.7365 3.11745 4.52948
EOD
set title "grain_prio against a locked pfifo_fast, three bands: own_core (consumer alone on CPU 0, producers on CPU 1)"
set ylabel 'million items dequeued/s, median'
set xlabel 'producers (threads = producers + 1 consumer), log scale'
set logscale x 2
set xtics ("1" 1, "2" 2, "4" 4, "8" 8, "12" 12)
set xrange [0.8:15.0]
set yrange [0:*]
set object 1 rect from 1.4142135623730951, graph 0 to 15.0, graph 1 behind fc rgb '#f1e4e4' fs solid 1.0 noborder
set label 1 'oversubscribed' at 15.0, graph 0.98 right offset -0.5,0 tc rgb '#a05050'
plot $d using 1:2 with linespoints lw 2.5 dt 1 pt 5 lc rgb '#1a5fb4' title "grain_prio, single", \
     $d using 1:3 with linespoints lw 2.5 dt 2 pt 5 lc rgb '#1a5fb4' title "grain_prio, burst32", \
     $d using 1:4 with linespoints lw 1.5 dt 1 pt 7 lc rgb '#e66100' title "spinlock baseline, single", \
     $d using 1:5 with linespoints lw 1.5 dt 2 pt 7 lc rgb '#e66100' title "spinlock baseline, burst32", \
     $d using 1:6 with linespoints lw 1.5 dt 1 pt 9 lc rgb '#26a269' title "mutex baseline, single", \
     $d using 1:7 with linespoints lw 1.5 dt 2 pt 9 lc rgb '#26a269' title "mutex baseline, burst32"
