# SPDX-License-Identifier: MIT
# prof.gp - where the time of one call goes, as stacked bars: one bar per
# (backend, N), stacked by the phase shares of the waiter's profile samples
# (user space first, then the kernel phases in the order of pmu/phases.txt),
# so each bar sums to 100 %.  Segments differ by fill pattern as well as
# colour, so the figure reads in grayscale; the legend lists them top down.
# Set by the per-figure wrapper: mode, kind, backends (space separated, one
# group of bars each), phases (column titles, space separated: "user" and
# the phase names), out, ttl.  Data: data_prof_MODE_KIND_BACKEND.dat,
# columns nfds, label, then one share (%) per phase.
load "style.gp"
set style data histograms
set style histogram rowstacked title offset 0, -1.6
set boxwidth 0.75 relative
set grid noxtics
set xtics nomirror scale 0 noenhanced rotate by 30 right font ",10"
set yrange [0:100]
set ytics 0, 20, 100
set ylabel "share of the waiter's samples (%)"
set xlabel "watched descriptors N (bars), grouped by backend (below)" offset 0, -2.2
set bmargin 7.5
set title ttl noenhanced
set key outside right top invert title "phase" noenhanced samplen 2
# fill of segment i: pattern number, or s<density> for a solid fill; colour
fills = "0 4 1 5 2 6 7 s0.35 s0.8 3 4 5"
colours = "#777777 #1b4f9c #c0392b #2e7d32 #6a1b9a #ef6c00 #00838f #9e9e9e #37474f #5d4037 #455a64 #ad1457"
fillspec(i) = (substr(word(fills, (i-1)%12+1), 1, 1) eq "s") ? \
    sprintf("fs solid %s border lc rgb 'black'", word(fills, (i-1)%12+1)[2:]) : \
    sprintf("fs pattern %s border lc rgb 'black'", word(fills, (i-1)%12+1))
datafile(b) = sprintf("data_prof_%s_%s_%s.dat", mode, kind, b)
nb = words(backends)
np = words(phases)
plotcmd = "plot"
do for [b=1:nb] {
    plotcmd = plotcmd . sprintf(" newhistogram '%s' lt 1,", word(backends, b))
    do for [i=1:np] {
        plotcmd = plotcmd . sprintf(" '%s' using %d%s %s lc rgb '%s' %s,", datafile(word(backends, b)), \
            i + 2, (i == 1 ? ":xtic(2)" : ""), fillspec(i), word(colours, (i-1)%12+1), \
            (b == 1 ? sprintf("title '%s'", word(phases, i)) : "notitle"))
    }
}
plotcmd = plotcmd[1:strlen(plotcmd)-1]
load "render.gp"
