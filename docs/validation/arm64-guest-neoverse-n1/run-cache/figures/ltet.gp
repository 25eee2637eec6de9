# ltet.gp - level- vs edge-triggered epoll when the reader consumes a
# write in chunks: system calls per delivered write (left) and time per
# delivered write (right) against the read size, log-log; LT and ET lines.
# The key sits under the left panel and holds for both.
# Set by the per-figure wrapper: out, ttl.
load "style.gp"
set autoscale fix
set logscale xy 2
set format x "%g"
set format y "%g"
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xlabel "bytes per read (chunk)"
set key outside bottom center horizontal
set title noenhanced
plotcmd = "set multiplot layout 1,2 title ttl noenhanced; " . \
          "set ylabel 'system calls per event'; set title 'system calls'; " . \
          "plot 'data_ltet_level.dat' using 'chunk':'syscalls' with linespoints ls 1 title 'level-triggered', " . \
          "'data_ltet_edge.dat' using 'chunk':'syscalls' with linespoints ls 2 title 'edge-triggered (to EAGAIN)'; " . \
          "set logscale y 10; set format y '10^{%T}'; " . \
          "set ylabel 'time per event (ns), median'; set title 'time'; " . \
          "plot 'data_ltet_level.dat' using 'chunk':'ns_p50' with linespoints ls 1 notitle, " . \
          "'data_ltet_edge.dat' using 'chunk':'ns_p50' with linespoints ls 2 notitle; " . \
          "unset multiplot; set logscale y 2; set format y '%g'"
load "render.gp"
