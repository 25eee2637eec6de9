# SPDX-License-Identifier: MIT
# kofn.gp - time per call against K, the number of watched descriptors
# ready at once, at one fixed N; one line per backend (median) with a
# p10..p90 band, log-log.  poll and select scan all N whatever K is;
# epoll_wait's work grows with K.  A dotted vertical line marks where
# epoll's median reaches poll's (cross_k, interpolated in log-log space like
# the axes, labelled with the digits two K points support: cross_label) when
# that happens between two measured K.
# Set by the per-figure wrapper: kind, nfds, backends (space separated),
# styles (each backend's line style, so a backend keeps its look in every
# N's figure), out (output base name), ttl (title), optionally cross_k.
load "style.gp"
set autoscale fix
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05   # data range + margins
set logscale x 2
set logscale y 10
set format x "%g"
# ticks at 1, 2 and 5 per decade with SI prefixes (500, 1k, 2k, 5k, ...), so a
# range narrower than a decade still has labels
set format y "%.0s%c"
do for [e=0:12] {
    set ytics add (gprintf("%.0s%c", 2*10.0**e) 2*10.0**e, gprintf("%.0s%c", 5*10.0**e) 5*10.0**e)
}
set xlabel "descriptors ready at once K (of N watched)"
set ylabel "time per call (ns), median and p10..p90"   # 1k = 1000 ns
set title ttl noenhanced
datafile(b) = sprintf("data_kofn_%s_N%d_%s.dat", kind, nfds, b)
nb = words(backends)
if (exists("cross_k")) {
    set arrow 1 from cross_k, graph 0 to cross_k, graph 1 nohead ls 21
    if (!exists("cross_label")) { cross_label = sprintf("%.2g", cross_k) }
    set label 1 sprintf("epoll = poll\nat K ≈ %s", cross_label) at cross_k, graph 0.06 \
        offset -0.5, 0 right font ",10" noenhanced
}
plotcmd = "plot for [i=1:nb] datafile(word(backends,i)) using 'active':'p10':'p90' " . \
          "with filledcurves fs transparent solid 0.12 noborder ls int(word(styles,i)) notitle, " . \
          "for [i=1:nb] datafile(word(backends,i)) using 'active':'p50' " . \
          "with linespoints ls int(word(styles,i)) title word(backends,i)"
load "render.gp"
