# render.gp - draw the prepared plot command `plotcmd` to OUT.png
# (pngcairo), OUT.svg and OUT.pdf (pdfcairo).  Loaded last by each
# figure-kind script; `out` is set by the per-figure wrapper.
do for [fmt in "png svg pdf"] {
    if (fmt eq "png") { eval "set terminal pngcairo enhanced size ".png_size." font '".font_png."'" }
    if (fmt eq "svg") { eval "set terminal svg enhanced size ".png_size." dynamic font '".font_png."'" }
    if (fmt eq "pdf") { eval "set terminal pdfcairo enhanced size ".pdf_size." font '".font_pdf."'" }
    set output out.".".fmt
    eval plotcmd
    unset output
}
