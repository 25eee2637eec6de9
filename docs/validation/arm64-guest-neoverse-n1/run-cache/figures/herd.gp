# herd.gp - the thundering herd as grouped bars: per arrangement, the
# waiters woken, returned from epoll_wait, and woken for nothing per
# written byte (means over the rounds).  Bars differ by fill pattern as
# well as colour, so the figure reads in grayscale.
# Set by the per-figure wrapper: out, ttl, optionally waiters (M).
load "style.gp"
set style data histograms
set style histogram clustered gap 1
set style fill pattern border lc rgb "black"
set boxwidth 0.9
set grid noxtics
set xtics nomirror scale 0 noenhanced rotate by 20 right
set yrange [0:*]
set offsets 0, 0, graph 0.08, 0
set xlabel "arrangement (epoll sets and flags)"
set ylabel "waiters per event (mean over rounds)"
set title ttl noenhanced
if (exists("waiters")) {
    set arrow 1 from graph 0, first waiters to graph 1, first waiters nohead ls 21
    set label 1 sprintf("M = %d waiters", waiters) at graph 0.01, first waiters \
        offset 0, 0.6 left font ",10"
}
plotcmd = "plot 'data_herd.dat' using 'woken':xtic(1) title 'woken' fs pattern 1 lc rgb '#1b4f9c', " . \
          "'' using 'returned' title 'returned' fs pattern 2 lc rgb '#c0392b', " . \
          "'' using 'wasted' title 'woken for nothing' fs pattern 4 lc rgb '#2e7d32'"
load "render.gp"
