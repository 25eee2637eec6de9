# counter_ready_pipe_task-clock.gp - task-clock per call against watched descriptors, Arm implementer 0x41 part 0xd0c (aarch64), ready mode, pipe fds (median, log-log)
# Redraw counter_ready_pipe_task-clock.png/.svg/.pdf here with: gnuplot counter_ready_pipe_task-clock.gp
# (restyle all figures in style.gp, this kind in counter.gp)
mode = "ready"
kind = "pipe"
backends = "poll epoll"
ttl = "ready mode, pipe fds: task-clock per call"
counter = "task-clock"
unit = "ns"
logy = 1
out = "counter_ready_pipe_task-clock"
load "counter.gp"
