# ratio_ready_pipe.gp - Median time per call relative to epoll's at the same N, Arm implementer 0x41 part 0xd0c (aarch64), ready mode, pipe fds (log-log; parity with epoll is the dashed reference line)
# Redraw ratio_ready_pipe.png/.svg/.pdf here with: gnuplot ratio_ready_pipe.gp
# (restyle all figures in style.gp, this kind in ratio.gp)
mode = "ready"
kind = "pipe"
backends = "poll epoll"
ttl = "ready mode, pipe fds: time per call / epoll"
out = "ratio_ready_pipe"
load "ratio.gp"
