# counter_ready_pipe_cycles.gp - cycles per call against watched descriptors, Arm implementer 0x41 part 0xd0c (aarch64), ready mode, pipe fds (median, log-log)
# Redraw counter_ready_pipe_cycles.png/.svg/.pdf here with: gnuplot counter_ready_pipe_cycles.gp
# (restyle all figures in style.gp, this kind in counter.gp)
mode = "ready"
kind = "pipe"
backends = "poll epoll"
ttl = "ready mode, pipe fds: cycles per call"
counter = "cycles"
unit = "events"
logy = 1
out = "counter_ready_pipe_cycles"
load "counter.gp"
