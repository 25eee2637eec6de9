/* SPDX-License-Identifier: MIT */
/* paper.h - the layout of a figure's two PDFs when they are drawn for a paper
 * (`muxprof report --paper`, `run --paper`): axes over the range of what the
 * figure draws (not widened to whole decades), labelled ticks at least three
 * to every decade the axis spans (1, 2, 5 per decade; finer when it spans
 * less than one), and the legend inside the plot in a corner that no curve,
 * band, error bar, reference line, marker line or label crosses, chosen at
 * each width (3.5 in and 7 in), or below the plot when no corner is free.
 *
 * A figure describes what it draws: its series (read back from the data
 * files it wrote, so the layout sees what gnuplot plots), reference lines,
 * labels and legend entries; mp_rpaper_write then writes the gnuplot
 * variables (paper, paper_x, paper_y, paper_labels, paper_key, paper_key2) that
 * plots/render.gp applies to the PDFs only: the PNG and SVG of the report
 * are drawn as without --paper.  Nothing here runs gnuplot. */
#ifndef MP_REPORT_PAPER_H
#define MP_REPORT_PAPER_H

#include <stddef.h>
#include <stdio.h>

#include "common/file.h"
#include "common/mp_err.h"

/* Axis scales. */
enum { MP_RPAPER_LIN, MP_RPAPER_LOG10, MP_RPAPER_LOG2 };
/* How a series is drawn: a line through its points (lo = hi), a filled band
 * between lo and hi, error bars from lo to hi at the points only. */
enum { MP_RPAPER_LINE, MP_RPAPER_BAND, MP_RPAPER_ERRBARS };

#define MP_RPAPER_MAXSER 96
#define MP_RPAPER_MAXMARK 16

/* The two widths a figure's PDFs are drawn at (plots/style.gp: pdf_size,
 * pdf2_size, font_pdf, font_pdf2): NAME.pdf and NAME-2col.pdf. */
typedef struct mp_rpaper_page {
    double w_in, h_in, font_pt;
} mp_rpaper_page;
extern const mp_rpaper_page mp_rpaper_pages[2];

typedef struct mp_rpaper_pt {
    double x, lo, hi;
} mp_rpaper_pt;

typedef struct mp_rpaper_ser {
    int how;               /* MP_RPAPER_LINE, _BAND, _ERRBARS */
    size_t first, n;       /* its points in pts[] */
} mp_rpaper_ser;

/* A text label of the figure (`set label TAG`): right-aligned, ending
 * `offset` characters left of data x, centred on graph y gy, `chars` wide
 * and `lines` high.  In the PDFs for a paper it is set in the figure's font
 * (the kind scripts size some for the PNG). */
typedef struct mp_rpaper_text {
    int tag;
    double x, gy, chars, lines, offset;
} mp_rpaper_text;

typedef struct mp_rpaper {
    int xs, ys;                        /* MP_RPAPER_LIN, _LOG10, _LOG2 */
    int bars;                          /* grouped bars: x holds names, y from 0; the
                                        * legend inside at the top, above the bars */
    int fixed;                         /* stacked shares (prof.gp): axes and legend kept,
                                        * tick labels in the figure's font */
    size_t xnames;                     /* bars: characters of the longest x name */
    mp_rpaper_pt *pts;
    size_t npts, cap;
    mp_rpaper_ser ser[MP_RPAPER_MAXSER];
    size_t nser;
    double hline[MP_RPAPER_MAXMARK];   /* reference lines across the plot at these y */
    size_t nh;
    double vline[MP_RPAPER_MAXMARK];   /* marker lines from bottom to top at these x */
    size_t nv;
    mp_rpaper_text lab[MP_RPAPER_MAXMARK];
    size_t nl;
    size_t nkey, keychars;             /* legend entries, the longest one's characters */
    int oom;
} mp_rpaper;

void mp_rpaper_init(mp_rpaper *p, int xs, int ys);
void mp_rpaper_free(mp_rpaper *p);

/* A series of n points (x[i], lo[i]..hi[i]; hi NULL: lo); points with a
 * coordinate not finite, or not above 0 on a log axis, are not drawn by
 * gnuplot and left out here.  0, or -ENOMEM. */
int mp_rpaper_series(mp_rpaper *p, int how, const double *x, const double *lo,
                     const double *hi, size_t n);

/* The same from data file `file` of dir, as the kind script reads it: the
 * first line that is not a '#' comment names the columns, '?' is missing;
 * xcol, locol and hicol (NULL: locol) are column names or 1-based numbers.
 * For bars (p->bars) only the y values count.  The number of points read,
 * or a negative errno with err filled (no such file, or a column it does
 * not have). */
int mp_rpaper_dat(mp_rpaper *p, mp_dir *dir, const char *file, int how, const char *xcol,
                  const char *locol, const char *hicol, mp_err *err);

void mp_rpaper_hline(mp_rpaper *p, double y);
void mp_rpaper_vline(mp_rpaper *p, double x);
void mp_rpaper_label(mp_rpaper *p, int tag, double x, double gy, double chars,
                     double lines, double offset);
/* One legend entry titled so (UTF-8; its characters are counted). */
void mp_rpaper_key(mp_rpaper *p, const char *title);

/* The axes and legend in the gnuplot variables render.gp applies to the
 * PDFs: paper = 1; paper_x, paper_y ("set xrange [..]; set xtics (...)",
 * absent for an axis the layout leaves to the kind script); paper_labels
 * (the labels' font, when there are labels); paper_key (3.5 in) and
 * paper_key2 (7 in).  0, or -ENOMEM. */
int mp_rpaper_write(const mp_rpaper *p, FILE *f);

/* ---- the parts, for tests ---- */

/* The labelled ticks of an axis over [lo, hi] (the data's range) for scale
 * xs: at most max values into t, ascending; on a log axis 1, 2 and 5 times
 * each power of ten (powers of two on a log2 axis), 1..9 times it on a
 * range narrower than a decade, a linear step where even those are fewer
 * than three; on a linear one a step of 1, 2, 2.5 or 5
 * times a power of ten giving at least four.  Returns how many; *minor
 * (when not NULL) says whether 3, 4, 6, 7, 8 and 9 times each power of ten
 * are unlabelled minor ticks. */
size_t mp_rpaper_ticks(int xs, double lo, double hi, double *t, size_t max, int *minor);
/* A tick's label: 1, 2, 5, 10, ..., 500, 1k, 2k, ..., 1M; 0.5, 0.2 below
 * 1.  Returns buf. */
const char *mp_rpaper_tick_label(double v, int xs, char *buf, size_t len);

#endif
