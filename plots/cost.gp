# SPDX-License-Identifier: MIT
# cost.gp - time per call against the number of watched descriptors, one
# line per backend (median, with error bars from the interval of the median
# where the data has one in ci_lo/ci_hi; '?' there draws no bar) with a
# light see-through p10..p90 band in the backend's colour, edged by thin
# lines in its own dash pattern: readable in grayscale, and overlapping bands
# (wakeup mode) stay visible through each other without a moire, log-log.
# The error bars are solid in a paper's PDFs (render.gp: paper_eb).
# Set by the per-figure wrapper: mode, kind, backends (space separated),
# out (output base name), ttl (title), ci_text (the error bars' interval,
# "96.1% CI"); optionally fdset_n (N at which select's fd numbers
# reach FD_SETSIZE: marked).
load "style.gp"
set autoscale fix
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05   # data range + margins
set logscale xy 10
set format x "10^{%T}"
set format y "10^{%T}"
set xlabel "watched descriptors N"
# ci_text: the error bars' interval and its level ("96.1% CI"), empty without one.
if (!exists("ci_text")) ci_text = ""
set ylabel (ci_text eq "" ? "time per call (ns): median, p10..p90" : \
            "time per call (ns): median, " . ci_text . ", p10..p90")
set title ttl noenhanced
if (exists("fdset_n")) {
    set arrow 5 from fdset_n, graph 0 to fdset_n, graph 1 nohead ls 21
    # at the top, left of the marker: the curves rise with N, so at N below
    # the marker the top of the plot is free (epoll runs along the bottom)
    set label 5 "select: FD\\_SETSIZE" at fdset_n, graph 0.97 right offset -0.5,0 \
        textcolor rgb "#555555"
}
datafile(b) = sprintf("data_%s_%s_%s.dat", mode, kind, b)
nb = words(backends)
plotcmd = "plot for [i=1:nb] datafile(word(backends,i)) using 'nfds':'p10':'p90' " . \
          "with filledcurves ls i fs transparent solid 0.12 noborder notitle, " . \
          "for [i=1:nb] datafile(word(backends,i)) using 'nfds':'p10' " . \
          "with lines ls i lw 0.5*lw_s notitle, " . \
          "for [i=1:nb] datafile(word(backends,i)) using 'nfds':'p90' " . \
          "with lines ls i lw 0.5*lw_s notitle, " . \
          "for [i=1:nb] datafile(word(backends,i)) using 'nfds':'p50':'ci_lo':'ci_hi' " . \
          "with yerrorbars ls i @paper_eb ps 0 notitle, " . \
          "for [i=1:nb] datafile(word(backends,i)) using 'nfds':'p50' " . \
          "with linespoints ls i title word(backends,i)"
load "render.gp"
