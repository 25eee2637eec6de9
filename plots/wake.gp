# SPDX-License-Identifier: MIT
# wake.gp - wakeup time per call against N for one backend, one line per
# wake delay (how long the waiter had slept before the poke: --wake-delay),
# median with a p10..p90 band, log-log.  A deeper sleep costs more to wake
# from (idle states, caches and TLB cooled); the lines' gaps show by how much.
# Set by the per-figure wrapper: kind, backend, delays (space separated ns
# values, each a data file), labels (the same, as "30us", one word each),
# out (output base name), ttl (title).
load "style.gp"
set autoscale fix
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05   # data range + margins
set logscale x 10
set logscale y 10
set format x "%.0s%c"
set format y "%.0s%c"
do for [e=0:12] {
    set ytics add (gprintf("%.0s%c", 2*10.0**e) 2*10.0**e, gprintf("%.0s%c", 5*10.0**e) 5*10.0**e)
}
set xlabel "watched descriptors N"
set ylabel "wakeup time per call (ns), median and p10..p90"   # 1k = 1000 ns
set title ttl noenhanced
datafile(d) = sprintf("data_wake_%s_%s_D%s.dat", kind, backend, d)
nd = words(delays)
plotcmd = "plot for [i=1:nd] datafile(word(delays,i)) using 'nfds':'p10':'p90' " . \
          "with filledcurves fs transparent solid 0.12 noborder ls i notitle, " . \
          "for [i=1:nd] datafile(word(delays,i)) using 'nfds':'p50' " . \
          "with linespoints ls i title 'asleep '.word(labels,i)"
load "render.gp"
