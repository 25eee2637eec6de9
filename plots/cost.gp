# cost.gp - time per call against the number of watched descriptors, one
# line per backend (median) with a p10..p90 band, log-log.
# Set by the per-figure wrapper: mode, kind, backends (space separated),
# out (output base name), ttl (title).
load "style.gp"
set autoscale fix
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05   # data range + margins
set logscale xy 10
set format x "10^{%T}"
set format y "10^{%T}"
set xlabel "watched descriptors N"
set ylabel "time per call (ns), median and p10..p90"
set title ttl noenhanced
datafile(b) = sprintf("data_%s_%s_%s.dat", mode, kind, b)
nb = words(backends)
plotcmd = "plot for [i=1:nb] datafile(word(backends,i)) using 'nfds':'p10':'p90' " . \
          "with filledcurves fs transparent solid 0.12 noborder ls i notitle, " . \
          "for [i=1:nb] datafile(word(backends,i)) using 'nfds':'p50' " . \
          "with linespoints ls i title word(backends,i)"
load "render.gp"
