# ratio.gp - each backend's median time per call divided by epoll's at the
# same N, log-log; epoll itself is the line at 1.
# Set by the per-figure wrapper: mode, kind, backends, out, ttl.
load "style.gp"
set autoscale fix
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05   # data range + margins
set logscale xy 10
set format x "10^{%T}"
set xlabel "watched descriptors N"
set ylabel "time per call / epoll's (median ratio)"
set format y "10^{%T}"
set title ttl noenhanced
datafile(b) = sprintf("data_%s_%s_%s.dat", mode, kind, b)
nb = words(backends)
plotcmd = "plot for [i=1:nb] datafile(word(backends,i)) using 'nfds':'ratio_epoll' " . \
          "with linespoints ls i title (word(backends,i) eq 'epoll' ? " . \
          "'epoll (parity)' : word(backends,i) . ' / epoll')"
load "render.gp"
