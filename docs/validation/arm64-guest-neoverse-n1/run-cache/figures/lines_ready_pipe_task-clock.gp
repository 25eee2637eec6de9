# lines_ready_pipe_task-clock.gp - task-clock per call against pollfd cache lines (64-byte lines), Arm implementer 0x41 part 0xd0c (aarch64), ready mode, pipe fds, with the fit to poll and cache sizes
# Redraw lines_ready_pipe_task-clock.png/.svg/.pdf here with: gnuplot lines_ready_pipe_task-clock.gp
# (restyle all figures in style.gp, this kind in lines.gp)
mode = "ready"
kind = "pipe"
backends = "poll epoll"
ttl = "ready mode, pipe fds: task-clock vs pollfd lines"
counter = "task-clock"
unit = "ns"
logy = 1
# least-squares fit to poll over 3 points (R^2 1.0000)
fit_a = 738.3314384
fit_b = 1037.092898
fit_lo = 2
fit_hi = 125
fit_label = "fit: 1,037/line"
out = "lines_ready_pipe_task-clock"
load "lines.gp"
