# SPDX-License-Identifier: MIT
# compare_ratio.gp - `muxprof compare`: one backend's median time per call
# divided by epoll's on the same host at the same N, one line per host,
# log-log; parity with epoll is a reference line at 1, as in ratio.gp.
# Set by the per-figure wrapper: mode, kind, backend, hosts, t1 t2 ...,
# out, ttl.  Data: cmp_MODE_KIND_BACKEND_hI.dat, column ratio_epoll.
load "style.gp"
set key below left Left reverse   # host labels are long: under the plot
set autoscale fix
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05   # as the run's figures
set logscale xy 10
set format x "10^{%T}"
set xlabel "watched descriptors N"
set format y "10^{%T}"
set ylabel sprintf("%s time per call / epoll's (median ratio)", backend) noenhanced
set title ttl noenhanced
datafile(h) = sprintf("cmp_%s_%s_%s_h%s.dat", mode, kind, backend, h)
plotcmd = "plot for [h in hosts] datafile(h) using 'nfds':'ratio_epoll' " . \
          "with linespoints ls int(h) title value('t'.h) noenhanced, " . \
          "1 with lines ls 22 title 'parity with epoll'"
load "render.gp"
