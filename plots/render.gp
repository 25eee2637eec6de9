# SPDX-License-Identifier: MIT
# render.gp - draw the prepared plot command `plotcmd` to OUT.png
# (pngcairo), OUT.svg, OUT.pdf (pdfcairo, single column: 3.5 in) and
# OUT-2col.pdf (double column: 7 in), each with its own font size, line
# widths and marker sizes.  Loaded last by each figure-kind script; `out`
# is set by the per-figure wrapper.  A dry run first learns the data range:
# a log y axis is widened to whole decades so at least two decade ticks
# are labelled (a series below the lowest labelled tick is not readable);
# a log x axis is widened the same way when its data hold no decade.
# A figure for a paper (report --paper: the wrapper sets paper = 1, with
# paper_x, paper_y, paper_labels, paper_key and paper_key2 from
# report/paper.c) draws its PDFs without a title (the caption holds it),
# over the data's range with the ticks given, labels in the figure's font,
# its legend where paper_key (3.5 in) or paper_key2 (7 in) puts it and solid
# error bars (paper_eb, a macro in the kind scripts' error bars); PNG and
# SVG are drawn as without it.
paper_eb = ""
set terminal dumb
set output "/dev/null"
eval plotcmd
unset output
if (GPVAL_Y_LOG > 0 && GPVAL_DATA_Y_MIN > 0) {
    set yrange [10**floor(log10(GPVAL_DATA_Y_MIN)*1.0 - 1e-9) : 10**ceil(log10(GPVAL_DATA_Y_MAX) + 1e-9)]
}
if (GPVAL_X_LOG > 0 && GPVAL_DATA_X_MIN > 0 && \
    floor(log10(GPVAL_DATA_X_MAX) + 1e-9) < ceil(log10(GPVAL_DATA_X_MIN) - 1e-9)) {
    set xrange [10**floor(log10(GPVAL_DATA_X_MIN)) : 10**ceil(log10(GPVAL_DATA_X_MAX))]
}
# `gnuplot -e 'formats = "pdf"' NAME.gp` draws only the outputs named.
if (!exists("formats")) { formats = "png svg pdf pdf2" }
do for [fmt in formats] {
    if (fmt eq "png") { lw_s = 1.0; ps_s = 1.0
        eval "set terminal pngcairo enhanced size ".png_size." font '".font_png."'" }
    if (fmt eq "svg") { lw_s = 1.0; ps_s = 1.0
        eval "set terminal svg enhanced size ".png_size." dynamic font '".font_png."'" }
    if ((fmt eq "pdf" || fmt eq "pdf2") && !(exists("paper") && paper)) {
        set key below horizontal   # paper widths: the plot keeps the width
    }
    if ((fmt eq "pdf" || fmt eq "pdf2") && exists("paper") && paper) {
        unset title
        if (exists("paper_x")) { eval paper_x }
        if (exists("paper_y")) { eval paper_y }
        if (exists("paper_labels")) { eval paper_labels }
        eval (fmt eq "pdf" ? paper_key : paper_key2)
        paper_eb = "dt 1"
    }
    if (fmt eq "pdf") { lw_s = 0.45; ps_s = 0.4
        eval "set terminal pdfcairo enhanced size ".pdf_size." font '".font_pdf."'" }
    if (fmt eq "pdf2") { lw_s = 0.6; ps_s = 0.55
        eval "set terminal pdfcairo enhanced size ".pdf2_size." font '".font_pdf2."'" }
    eval set_lines(lw_s, ps_s)
    set output out.(fmt eq "pdf2" ? "-2col.pdf" : ".".fmt)
    eval plotcmd
    unset output
}
