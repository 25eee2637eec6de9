# lines_ready_pipe_instructions.gp - instructions per call against pollfd cache lines (64-byte lines), Arm implementer 0x41 part 0xd0c (aarch64), ready mode, pipe fds, with the fit to poll and cache sizes
# Redraw lines_ready_pipe_instructions.png/.svg/.pdf here with: gnuplot lines_ready_pipe_instructions.gp
# (restyle all figures in style.gp, this kind in lines.gp)
mode = "ready"
kind = "pipe"
backends = "poll epoll"
ttl = "ready mode, pipe fds: instructions vs pollfd lines"
counter = "instructions"
unit = "events"
logy = 1
# least-squares fit to poll over 3 points (R^2 1.0000)
fit_a = 744.0254731
fit_b = 1037.042311
fit_lo = 2
fit_hi = 125
fit_label = "fit: 1,037/line"
out = "lines_ready_pipe_instructions"
load "lines.gp"
