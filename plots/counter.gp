# counter.gp - one hardware/software counter per call against the number of
# watched descriptors, median per backend, log-log.
# Set by the per-figure wrapper: mode, kind, backends, counter (the column
# name in the data files), out, ttl.
load "style.gp"
set logscale xy 10
set format x "10^{%T}"
set xlabel "watched descriptors N"
set ylabel sprintf("%s per call (events, median)", counter) noenhanced
set title ttl noenhanced
datafile(b) = sprintf("data_%s_%s_%s.dat", mode, kind, b)
nb = words(backends)
plotcmd = "plot for [i=1:nb] datafile(word(backends,i)) using 'nfds':counter " . \
          "with linespoints ls i title word(backends,i)"
load "render.gp"
