# SPDX-License-Identifier: MIT
# lines.gp - a counter per call against the cache lines of the pollfd array
# (ceil(8 N / line) lines) for each backend, with the least-squares line
# fitted to poll's points and markers where the array fills each cache.
# Set by the per-figure wrapper: mode, kind, backends, counter, out, ttl,
# logy (0: linear y axis, some values are 0), unit ("events" or "ns");
# optionally fit_a (intercept), fit_b (events per line), fit_lo, fit_hi
# (x range of the fit), fit_label (its legend, the number report.md gives)
# and markers ("L1d 512 L2 8192 ...": name, lines).
load "style.gp"
set autoscale fix
set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05   # data range + margins
set logscale x 10
if (!exists("logy") || logy) { set logscale y 10; set format y "10^{%T}" }  # logy = 0: some are 0
if (!exists("unit")) { unit = "events" }
set format x "10^{%T}"
set xlabel "pollfd array size (cache lines per call)"
set ylabel sprintf("%s per call (%s, median)", counter, unit) noenhanced
set title ttl noenhanced
datafile(b) = sprintf("data_%s_%s_%s.dat", mode, kind, b)
nb = words(backends)
if (exists("markers")) {
    do for [i=1:words(markers)/2] {
        mx = real(word(markers, 2*i))
        set arrow from mx, graph 0 to mx, graph 1 nohead ls 21
        set label word(markers, 2*i-1) at mx, graph 0.97 right offset -0.4,0 \
            font ",9" textcolor rgb "#555555" noenhanced
    }
}
plotcmd = "plot for [i=1:nb] datafile(word(backends,i)) using 'pollfd_lines':counter " . \
          "with linespoints ls i title word(backends,i)"
if (exists("fit_b")) {
    fitf(x) = (x >= fit_lo && x <= fit_hi) ? fit_a + fit_b * x : NaN
    set samples 400
    plotcmd = plotcmd . ", fitf(x) with lines ls 20 title (exists('fit_label') ? fit_label : sprintf('fit: %.3g/line', fit_b))"
}
load "render.gp"
