# SPDX-License-Identifier: MIT
# compare_sim.gp - `muxprof compare` of simulated runs: one count of the
# cache and TLB model per call against the number of watched descriptors,
# one line per backend and input (p50 of the kept calls, p10..p90 as error
# bars), log-log.  Set by the per-figure wrapper: files (the data files
# drawn, space separated), t1 t2 ... (their titles), ylab, out, ttl.
# Data: cmp_sim_MODE_KIND_COUNT_BACKEND_hI.dat, columns nfds p50 p10 p90
# (an N whose count is 0 is left out: a log axis has no zero).
load "style.gp"
set key below left Left reverse   # input labels are long: under the plot
set autoscale fix
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05
set logscale xy 10
set format x "10^{%T}"
set format y "10^{%T}"
set xlabel "watched descriptors N"
set ylabel ylab noenhanced
set title ttl noenhanced
plotcmd = "plot for [i=1:words(files)] word(files, i) using 'nfds':'p50':'p10':'p90' " . \
          "with yerrorbars ls i ps 0 notitle, " . \
          "for [i=1:words(files)] word(files, i) using 'nfds':'p50' " . \
          "with linespoints ls i title value('t'.i) noenhanced"
load "render.gp"
