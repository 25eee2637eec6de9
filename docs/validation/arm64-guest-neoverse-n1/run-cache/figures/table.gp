# table.gp - a figure an experiment's table asks for (experiments/table.h):
# each y column against the x column, one line per data file (one per
# series value) and y column; log axes where the table asks for them.
# Set by the per-figure wrapper: files, titles (one per file), xcol,
# ycols, xlabel, ylabel, logx, logy, out, ttl.
load "style.gp"
set autoscale fix
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05   # data range + margins
if (logx) { set logscale x 10; set format x "10^{%T}" }
if (logy) { set logscale y 10; set format y "10^{%T}" }
set xlabel xlabel noenhanced
set ylabel ylabel noenhanced
set title ttl noenhanced
nf = words(files)
ny = words(ycols)
legend(i, j) = ny > 1 ? word(titles, i) . " " . word(ycols, j) : word(titles, i)
plotcmd = "plot for [i=1:nf] for [j=1:ny] word(files,i) " . \
          "using (column(xcol)):(column(word(ycols,j))) " . \
          "with linespoints ls ((i-1)*ny+j-1)%8+1 title legend(i,j) noenhanced"
load "render.gp"
