# SPDX-License-Identifier: MIT
# prof_fd.gp - the per-descriptor view of a profile: nanoseconds per call
# that each phase stands for (share x the cell's wall p50), divided by N,
# against N, log-log; one line per phase.  A flat line is a phase whose cost
# grows linearly with N; a step up is a cache knee; a line falling as 1/N
# is a fixed cost per call (epoll's).
# Set by the per-figure wrapper: file (the data file), cols (its columns of
# ns per fd, space separated), styles (each phase's line style, so a phase
# looks the same in every backend's figure), titles (the phase names, same order), out,
# ttl.
load "style.gp"
set autoscale fix
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05
set logscale x 10
set logscale y 10
set format x "%g"
set format y "%g"
set xlabel "watched descriptors N"
set ylabel "ns per call per watched descriptor"
set title ttl noenhanced
nc = words(cols)
plotcmd = "plot for [i=1:nc] file using 1:(column(int(word(cols,i)))) with linespoints ls int(word(styles,i)) title word(titles,i)"
load "render.gp"
