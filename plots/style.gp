# style.gp - shared look of every muxprof figure: loaded by each figure-kind
# script.  Edit this file to restyle all figures of a run, then rerun
# `gnuplot FIGURE.gp` (or `for f in *_*.gp; do gnuplot "$f"; done`).
# Lines differ in dash pattern and point type as well as colour, so the
# figures stay readable when printed in grayscale.
set style line 1 lc rgb "#1b4f9c" lw 2 dt 1 pt 7 ps 1.2
set style line 2 lc rgb "#c0392b" lw 2 dt 2 pt 5 ps 1.2
set style line 3 lc rgb "#2e7d32" lw 2 dt 4 pt 9 ps 1.4
set style line 4 lc rgb "#6a1b9a" lw 2 dt 5 pt 13 ps 1.4
set style line 5 lc rgb "#ef6c00" lw 2 dt 3 pt 11 ps 1.4
set style line 6 lc rgb "#00838f" lw 2 dt 6 pt 6 ps 1.2
set style line 7 lc rgb "#5d4037" lw 2 dt 7 pt 4 ps 1.2
set style line 8 lc rgb "#455a64" lw 2 dt 8 pt 8 ps 1.2
# the fitted line and cache-size markers
set style line 20 lc rgb "black" lw 1.5 dt 1
set style line 21 lc rgb "#555555" lw 1 dt 3
set grid xtics ytics mxtics mytics lc rgb "#dddddd" lw 1 dt 1
set border 3
set tics nomirror out
set key outside right top spacing 1.3 samplen 3 noautotitle noenhanced   # io_uring: no subscript
set datafile columnheaders
set datafile missing "?"
set datafile commentschars "#"
# The figure-kind scripts draw `plotcmd` once per output format.
# Sizes: PNG for reports, SVG and PDF for papers.
png_size = "960,600"
pdf_size = "6.4in,4in"
font_png = "sans,12"
font_pdf = "sans,9"
