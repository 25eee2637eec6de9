# SPDX-License-Identifier: MIT
# style.gp - shared look of every muxprof figure: loaded by each figure-kind
# script.  Edit this file to restyle all figures of a run, then rerun
# `gnuplot FIGURE.gp` (or `for f in *_*.gp; do gnuplot "$f"; done`).
# Lines differ in dash pattern and point type as well as colour, so the
# figures stay readable when printed in grayscale.  Widths and marker sizes
# are scaled per output (render.gp calls set_lines(lw_s, ps_s)), so a
# 3.5-inch PDF gets thin lines and small markers that do not hide each other.
set_lines(lw, ps) = \
  sprintf("set style line 1 lc rgb '#1b4f9c' lw %g dt 1 pt 7 ps %g;", 2*lw, 1.0*ps) . \
  sprintf("set style line 2 lc rgb '#c0392b' lw %g dt 2 pt 4 ps %g;", 2*lw, 1.1*ps) . \
  sprintf("set style line 3 lc rgb '#2e7d32' lw %g dt 4 pt 8 ps %g;", 2*lw, 1.2*ps) . \
  sprintf("set style line 4 lc rgb '#6a1b9a' lw %g dt 5 pt 13 ps %g;", 2*lw, 1.2*ps) . \
  sprintf("set style line 5 lc rgb '#ef6c00' lw %g dt 3 pt 11 ps %g;", 2*lw, 1.2*ps) . \
  sprintf("set style line 6 lc rgb '#00838f' lw %g dt 6 pt 6 ps %g;", 2*lw, 1.0*ps) . \
  sprintf("set style line 7 lc rgb '#5d4037' lw %g dt 7 pt 5 ps %g;", 2*lw, 1.0*ps) . \
  sprintf("set style line 8 lc rgb '#455a64' lw %g dt 8 pt 9 ps %g;", 2*lw, 1.0*ps) . \
  sprintf("set style line 20 lc rgb 'black' lw %g dt 1;", 1.5*lw) . \
  sprintf("set style line 21 lc rgb '#555555' lw %g dt 3;", 1.0*lw) . \
  sprintf("set style line 22 lc rgb '#333333' lw %g dt (6,4);", 1.2*lw)
lw_s = 1.0
ps_s = 1.0
eval set_lines(lw_s, ps_s)
# line 20: fitted lines; 21: cache-size and FD_SETSIZE markers; 22: parity
set grid xtics ytics mxtics mytics lc rgb "#dddddd" lw 1 dt 1
set border 3
set tics nomirror out
set key below center horizontal spacing 1.3 height 1 samplen 3 noautotitle noenhanced   # under the plot: it keeps the width; io_uring: no subscript
set style fill transparent solid 0.10 noborder   # p10..p90 bands: light, see-through
set errorbars small
set datafile columnheaders
set datafile missing "?"
set datafile commentschars "#"
# The figure-kind scripts draw `plotcmd` once per output format (render.gp).
# Sizes: PNG and SVG for reports; PDF at a paper's single-column width
# (3.5 in, OUT.pdf) and double-column width (7 in, OUT-2col.pdf).
png_size = "960,600"
pdf_size = "3.5in,2.6in"
pdf2_size = "7in,4.2in"
font_png = "sans,12"
font_pdf = "sans,7"
font_pdf2 = "sans,9"
