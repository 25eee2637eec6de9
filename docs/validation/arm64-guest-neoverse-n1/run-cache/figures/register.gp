# register.gp - what registering N descriptors costs, per descriptor:
# the median time of open() + N add() divided by N, against N, one line
# per backend; log x, and log y when every value is above 0 (logy = 1).
# Set by the per-figure wrapper: kind, backends, styles (line style of
# each backend), logy, out, ttl.
load "style.gp"
set autoscale fix
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05   # data range + margins
set logscale x 10
set format x "10^{%T}"
if (logy) { set logscale y 10; set format y "10^{%T}" }
set xlabel "descriptors registered N"
set ylabel "registration time per descriptor (ns)"
set title ttl noenhanced
datafile(b) = sprintf("data_register_%s_%s.dat", kind, b)
nb = words(backends)
plotcmd = "plot for [i=1:nb] datafile(word(backends,i)) using 'nfds':'ns_per_fd' " . \
          "with linespoints ls int(word(styles,i)) title word(backends,i)"
load "render.gp"
