# SPDX-License-Identifier: MIT
# table.gp - a figure an experiment's table asks for (results/exp_table.h):
# each y column against the x column, one line per data file (one per
# series value) and y column, log axes where the table asks for them; or,
# when x is a column of names, grouped bars: one group per row, one bar per
# data file and y column, told apart by fill pattern as well as colour.
# Set by the per-figure wrapper: files, titles (one per file), xcol,
# ycols, xlabel, ylabel, logx, logy, bars, out, ttl.
load "style.gp"
set xlabel xlabel noenhanced
set ylabel ylabel noenhanced
set title ttl noenhanced
nf = words(files)
ny = words(ycols)
legend(i, j) = ny > 1 ? (nf > 1 ? word(titles, i) . " " : "") . word(ycols, j) : word(titles, i)
if (bars) {
    set style data histograms
    set style histogram clustered gap 1
    set style fill pattern border lc rgb "black"
    set boxwidth 0.9
    set grid noxtics
    set xtics nomirror scale 0 noenhanced rotate by 20 right
    set yrange [0:*]
    set offsets 0, 0, graph 0.08, 0
    colours = "#1b4f9c #c0392b #2e7d32 #6a1b9a #ef6c00 #00838f #5d4037 #455a64"
    patterns = "1 2 4 5 6 7 3 8"
    k(i, j) = ((i-1)*ny+j-1)%8+1
    plotcmd = "plot for [i=1:nf] for [j=1:ny] word(files,i) " . \
              "using (column(word(ycols,j))):xtic(stringcolumn(xcol)) " . \
              "fs pattern int(word(patterns,k(i,j))) lc rgb word(colours,k(i,j)) " . \
              "title legend(i,j) noenhanced"
} else {
    set autoscale fix
    set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05   # data range + margins
    if (logx) { set logscale x 10; set format x "10^{%T}" }
    if (logy) { set logscale y 10; set format y "10^{%T}" }
    plotcmd = "plot for [i=1:nf] for [j=1:ny] word(files,i) " . \
              "using (column(xcol)):(column(word(ycols,j))) " . \
              "with linespoints ls ((i-1)*ny+j-1)%8+1 title legend(i,j) noenhanced"
}
load "render.gp"
