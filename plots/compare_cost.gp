# SPDX-License-Identifier: MIT
# compare_cost.gp - `muxprof compare`: time per call against the number of
# watched descriptors for one backend, one line per host (median), log-log.
# Set by the per-figure wrapper: mode, kind, backend, hosts (the host
# numbers drawn, space separated), t1 t2 ... (host labels), out, ttl.
# Data: cmp_MODE_KIND_BACKEND_hI.dat, columns nfds p50 ratio_epoll ci_lo
# ci_hi (error bars from the interval of the median where the run has one).
load "style.gp"
set key below left Left reverse   # host labels are long: under the plot
set autoscale fix
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05   # as the run's figures
set logscale xy 10
set format x "10^{%T}"
set format y "10^{%T}"
set xlabel "watched descriptors N"
set ylabel "time per call (ns): median, its interval"
set title ttl noenhanced
datafile(h) = sprintf("cmp_%s_%s_%s_h%s.dat", mode, kind, backend, h)
plotcmd = "plot for [h in hosts] datafile(h) using 'nfds':'p50':'ci_lo':'ci_hi' " . \
          "with yerrorbars ls int(h) ps 0 notitle, " . \
          "for [h in hosts] datafile(h) using 'nfds':'p50' " . \
          "with linespoints ls int(h) title value('t'.h) noenhanced"
load "render.gp"
