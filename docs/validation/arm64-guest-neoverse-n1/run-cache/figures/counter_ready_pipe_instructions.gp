# counter_ready_pipe_instructions.gp - instructions per call against watched descriptors, Arm implementer 0x41 part 0xd0c (aarch64), ready mode, pipe fds (median, log-log)
# Redraw counter_ready_pipe_instructions.png/.svg/.pdf here with: gnuplot counter_ready_pipe_instructions.gp
# (restyle all figures in style.gp, this kind in counter.gp)
mode = "ready"
kind = "pipe"
backends = "poll epoll"
ttl = "ready mode, pipe fds: instructions per call"
counter = "instructions"
unit = "events"
logy = 1
out = "counter_ready_pipe_instructions"
load "counter.gp"
