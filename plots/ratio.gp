# SPDX-License-Identifier: MIT
# ratio.gp - each backend's median time per call divided by epoll's at the
# same N, log-log; parity with epoll is a reference line at 1, not a data
# series.
# Set by the per-figure wrapper: mode, kind, backends, out, ttl; optionally
# fdset_n (N at which select's fd numbers reach FD_SETSIZE: marked).
load "style.gp"
set autoscale fix
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05   # data range + margins
set logscale xy 10
set format x "10^{%T}"
set xlabel "watched descriptors N"
set ylabel "time per call / epoll's (median ratio)"
set format y "10^{%T}"
set title ttl noenhanced
if (exists("fdset_n")) {
    set arrow 5 from fdset_n, graph 0 to fdset_n, graph 1 nohead ls 21
    # at the top, left of the marker: the curves rise with N, so at N below
    # the marker the top of the plot is free (epoll runs along the bottom)
    set label 5 "select: FD\\_SETSIZE" at fdset_n, graph 0.97 right offset -0.5,0 \
        textcolor rgb "#555555"
}
datafile(b) = sprintf("data_%s_%s_%s.dat", mode, kind, b)
# epoll's own ratio is 1 by definition: drawn as the parity line instead
# (each backend keeps its line style: its place in backends, as in cost.gp)
others = ""
styles = ""
do for [i=1:words(backends)] {
    if (word(backends,i) ne "epoll") { others = others . " " . word(backends,i); styles = styles . " " . i }
}
nb = words(others)
plotcmd = "plot for [i=1:nb] datafile(word(others,i)) using 'nfds':'ratio_epoll' " . \
          "with linespoints ls int(word(styles,i)) title word(others,i) . ' / epoll', " . \
          "1 with lines ls 22 title 'parity with epoll'"
load "render.gp"
