# SPDX-License-Identifier: MIT
# counter.gp - one hardware/software counter per call against the number of
# watched descriptors, median per backend, log-log.
# Set by the per-figure wrapper: mode, kind, backends, counter (the column
# name in the data files), out, ttl; logy = 0 for a linear y axis;
# unit ("events", or "ns" for task-clock).
load "style.gp"
set autoscale fix
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05   # data range + margins
set logscale x 10
if (!exists("logy") || logy) { set logscale y 10; set format y "10^{%T}" }  # logy = 0: some are 0
if (!exists("unit")) { unit = "events" }
set format x "10^{%T}"
set xlabel "watched descriptors N"
set ylabel sprintf("%s per call (%s, median)", counter, unit) noenhanced
set title ttl noenhanced
datafile(b) = sprintf("data_%s_%s_%s.dat", mode, kind, b)
nb = words(backends)
plotcmd = "plot for [i=1:nb] datafile(word(backends,i)) using 'nfds':counter " . \
          "with linespoints ls i title word(backends,i)"
load "render.gp"
