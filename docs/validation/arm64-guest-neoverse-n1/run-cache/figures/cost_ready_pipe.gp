# cost_ready_pipe.gp - Time per call against watched descriptors, Arm implementer 0x41 part 0xd0c (aarch64), ready mode, pipe fds: median with error bars from its interval, p10..p90 band (log-log)
# Redraw cost_ready_pipe.png/.svg/.pdf here with: gnuplot cost_ready_pipe.gp
# (restyle all figures in style.gp, this kind in cost.gp)
mode = "ready"
kind = "pipe"
backends = "poll epoll"
ttl = "ready mode, pipe fds: time per call"
out = "cost_ready_pipe"
load "cost.gp"
