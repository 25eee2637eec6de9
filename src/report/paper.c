/* SPDX-License-Identifier: MIT */
/* paper.c - the layout of a figure's PDFs for a paper: axes from the data's
 * range, labelled ticks, the legend where nothing is drawn.  See
 * report/paper.h.
 *
 * The legend's place is found in graph coordinates (0..1 across the plot
 * area, on log axes in log space, where gnuplot draws straight segments
 * between points): every candidate corner's box, padded, is tested against
 * each series' segments and bands, error bars, reference lines and labels.
 * Sizes in points come from gnuplot's pdfcairo terminal (measured with
 * GPVAL_TERM_HCHAR, GPVAL_TERM_VCHAR and a boxed key): a character cell of
 * 0.424 x 0.776 of the font size, a key entry `spacing` cells high and
 * (samplen + 2.6 + characters) cells wide, placed about one cell in from the
 * plot's corner. */
#include "report/paper.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const mp_rpaper_page mp_rpaper_pages[2] = {
    {3.5, 2.6, 7},   /* NAME.pdf: single column */
    {7.0, 4.2, 9},   /* NAME-2col.pdf: double column */
};

#define HCHAR 0.424     /* gnuplot's character cell, per point of font size */
#define VCHAR 0.776
#define DIGIT 0.62      /* the drawn width of a tick label's character */
#define KEY_SAMPLEN 2
#define KEY_SPACING 1.2
#define MAX_TICKS 128

void mp_rpaper_init(mp_rpaper *p, int xs, int ys)
{
    memset(p, 0, sizeof *p);
    p->xs = xs;
    p->ys = ys;
}

void mp_rpaper_free(mp_rpaper *p)
{
    free(p->pts);
    memset(p, 0, sizeof *p);
}

static int usable(double v, int scale)
{
    return isfinite(v) && (scale == MP_RPAPER_LIN || v > 0);
}

int mp_rpaper_series(mp_rpaper *p, int how, const double *x, const double *lo,
                     const double *hi, size_t n)
{
    if (p->nser >= MP_RPAPER_MAXSER)
        return 0;   /* more than a legend could hold: the layout goes on without */
    if (p->npts + n > p->cap) {
        size_t cap = p->cap ? p->cap : 256;
        while (cap < p->npts + n)
            cap *= 2;
        mp_rpaper_pt *v = realloc(p->pts, cap * sizeof *v);
        if (!v) {
            p->oom = 1;
            return -ENOMEM;
        }
        p->pts = v;
        p->cap = cap;
    }
    mp_rpaper_ser *s = &p->ser[p->nser];
    s->how = how;
    s->first = p->npts;
    s->n = 0;
    for (size_t i = 0; i < n; i++) {
        double a = lo[i], b = hi ? hi[i] : lo[i];
        if ((!p->bars && !usable(x[i], p->xs)) || !usable(a, p->ys) || !usable(b, p->ys))
            continue;
        mp_rpaper_pt *q = &p->pts[p->npts++];
        q->x = p->bars ? 0 : x[i];
        q->lo = fmin(a, b);
        q->hi = fmax(a, b);
        s->n++;
    }
    if (s->n)
        p->nser++;
    return 0;
}

/* The column of a name (or a 1-based number) among the header's words. */
static int column(const char *const *names, size_t n, const char *want)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(names[i], want))
            return (int)i;
    char *end;
    long k = strtol(want, &end, 10);
    return *want && !*end && k >= 1 && (size_t)k <= n ? (int)k - 1 : -1;
}

#define DAT_MAX (64u << 20)
#define DAT_COLS 256

int mp_rpaper_dat(mp_rpaper *p, mp_dir *dir, const char *file, int how, const char *xcol,
                  const char *locol, const char *hicol, mp_err *err)
{
    char *text = NULL;
    size_t len = 0;
    int rc = mp_dir_read(dir, file, DAT_MAX, &text, &len, err);
    if (rc)
        return rc;
    const char *names[DAT_COLS];
    size_t nn = 0;
    int cx = -1, cl = -1, ch = -1, header = 0;
    double *x = NULL, *lo = NULL, *hi = NULL;
    size_t n = 0, cap = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *s = line + strspn(line, " \t\r");
        if (!*s || *s == '#')
            continue;
        const char *w[DAT_COLS];
        size_t nw = 0;
        for (char *t = strtok(s, " \t\r"); t && nw < DAT_COLS; t = strtok(NULL, " \t\r"))
            w[nw++] = t;
        if (!header) {
            header = 1;
            memcpy(names, w, nw * sizeof *w);
            nn = nw;
            cx = column(names, nn, xcol);
            cl = column(names, nn, locol);
            ch = column(names, nn, hicol ? hicol : locol);
            if ((cx < 0 && !p->bars) || cl < 0 || ch < 0) {
                rc = mp_errf(err, -EINVAL, "%s%s: no column %s", dir->rel, file,
                             cx < 0 && !p->bars ? xcol : cl < 0 ? locol : hicol);
                break;
            }
            continue;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            double *nx = realloc(x, cap * sizeof *x), *nl, *nh;
            if (nx)
                x = nx;
            nl = nx ? realloc(lo, cap * sizeof *lo) : NULL;
            if (nl)
                lo = nl;
            nh = nl ? realloc(hi, cap * sizeof *hi) : NULL;
            if (!nh) {
                rc = -ENOMEM;
                p->oom = 1;
                mp_errf(err, rc, "out of memory reading %s", file);
                break;
            }
            hi = nh;
        }
        if (p->bars && cx >= 0 && (size_t)cx < nw && strlen(w[cx]) > p->xnames)
            p->xnames = strlen(w[cx]);
        double v[3];
        int c[3] = {cx, cl, ch};
        for (int k = 0; k < 3; k++) {
            char *end;
            v[k] = c[k] >= 0 && (size_t)c[k] < nw ? strtod(w[c[k]], &end) : NAN;
            if (c[k] >= 0 && (size_t)c[k] < nw && (end == w[c[k]] || *end))
                v[k] = NAN;   /* '?', or a name */
        }
        x[n] = v[0];
        lo[n] = v[1];
        hi[n] = v[2];
        n++;
    }
    if (rc == 0 && n) {
        rc = mp_rpaper_series(p, how, x, lo, hi, n);
        if (rc)
            mp_errf(err, rc, "out of memory laying out %s", file);
    }
    free(x);
    free(lo);
    free(hi);
    free(text);
    return rc ? rc : (int)n;
}

void mp_rpaper_hline(mp_rpaper *p, double y)
{
    if (p->nh < MP_RPAPER_MAXMARK && usable(y, p->ys))
        p->hline[p->nh++] = y;
}

void mp_rpaper_vline(mp_rpaper *p, double x)
{
    if (p->nv < MP_RPAPER_MAXMARK && usable(x, p->xs))
        p->vline[p->nv++] = x;
}

void mp_rpaper_label(mp_rpaper *p, int tag, double x, double gy, double chars,
                     double lines, double offset)
{
    if (p->nl < MP_RPAPER_MAXMARK && usable(x, p->xs))
        p->lab[p->nl++] = (mp_rpaper_text){tag, x, gy, chars, lines, offset};
}

/* Characters of UTF-8 text (continuation bytes not counted). */
static size_t chars_of(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

void mp_rpaper_key(mp_rpaper *p, const char *title)
{
    size_t n = chars_of(title);
    p->nkey++;
    if (n > p->keychars)
        p->keychars = n;
}

/* ---- axes ---------------------------------------------------------------- */

static double tr(double v, int scale)
{
    return scale == MP_RPAPER_LIN ? v : log10(v);
}

/* The range of what is drawn along x (axis 0) or y (axis 1); 0 when nothing. */
static int data_range(const mp_rpaper *p, int axis, double *lo, double *hi)
{
    double a = INFINITY, b = -INFINITY;
    for (size_t s = 0; s < p->nser; s++)
        for (size_t i = 0; i < p->ser[s].n; i++) {
            const mp_rpaper_pt *q = &p->pts[p->ser[s].first + i];
            a = fmin(a, axis ? q->lo : q->x);
            b = fmax(b, axis ? q->hi : q->x);
        }
    if (axis == 1) {
        for (size_t i = 0; i < p->nh; i++) {
            a = fmin(a, p->hline[i]);
            b = fmax(b, p->hline[i]);
        }
        if (p->bars)
            a = fmin(a, 0);
    }
    *lo = a;
    *hi = b;
    return a <= b;
}

/* The axis over [lo, hi] with margins: 4% of the span each side (on a log
 * axis of its decades, at least 0.02 decades); bars start at 0. */
static void axis_range(int scale, int bars, double lo, double hi, double *alo, double *ahi)
{
    if (scale != MP_RPAPER_LIN) {
        double a = log10(lo), b = log10(hi);
        if (b - a < 1e-9) {
            a -= 0.15;
            b += 0.15;
        }
        double m = fmax(0.04 * (b - a), 0.02);
        *alo = pow(10, a - m);
        *ahi = pow(10, b + m);
        return;
    }
    if (hi - lo <= fabs(hi) * 1e-12) {
        double d = hi != 0 ? fabs(hi) * 0.1 : 1;
        lo -= d;
        hi += d;
    }
    double m = 0.04 * (hi - lo);
    *alo = bars && lo >= 0 ? 0 : lo - m;
    *ahi = hi + (bars ? 2 : 1) * m;
}

static int in_range(double v, double lo, double hi)
{
    double e = 1e-9 * fmax(fabs(lo), fabs(hi));
    return v >= lo - e && v <= hi + e;
}

/* m x 10^e for each m of ms within [lo, hi], ascending. */
static size_t decade_ticks(const double *ms, size_t nm, double lo, double hi, double *t,
                           size_t max)
{
    size_t n = 0;
    int e0 = (int)floor(log10(lo)) - 1, e1 = (int)ceil(log10(hi)) + 1;
    for (int e = e0; e <= e1; e++)
        for (size_t k = 0; k < nm; k++) {
            double v = ms[k] * pow(10, e);
            if (in_range(v, lo, hi) && n < max)
                t[n++] = v;
        }
    return n;
}

/* The kind of ticks an axis gets, chosen on the data's range. */
enum { T_NONE, T_POW2, T_125, T_1TO9, T_LIN };
typedef struct tickset {
    int kind;
    double step;   /* T_LIN */
} tickset;

static const double s125[] = {1, 2, 5}, s1to9[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};

static size_t pow2_ticks(double lo, double hi, double *t, size_t max)
{
    size_t n = 0;
    for (int e = (int)floor(log2(lo)) - 1; e <= (int)ceil(log2(hi)) + 1; e++) {
        double v = ldexp(1, e);
        if (in_range(v, lo, hi) && n < max)
            t[n++] = v;
    }
    return n;
}

static size_t step_ticks(double step, double lo, double hi, double *t, size_t max)
{
    double a = ceil(lo / step - 1e-9), b = floor(hi / step + 1e-9);
    size_t n = 0;
    for (double i = a; i <= b && n < max; i++) {
        double v = i * step;
        t[n++] = fabs(v) < step * 1e-9 ? 0 : v;
    }
    return n;
}

/* A step of 1, 2, 2.5 or 5 times a power of ten: the largest that puts at
 * least four ticks on [lo, hi]; 0 when none does. */
static double linear_step(double lo, double hi)
{
    static const double ms[] = {5, 2.5, 2, 1};
    double span = hi - lo;
    if (!(span > 0) || !isfinite(span))
        return 0;
    for (int e = (int)ceil(log10(span)); e > (int)floor(log10(span)) - 4; e--)
        for (size_t k = 0; k < 4; k++) {
            double step = ms[k] * pow(10, e);
            if (ceil(lo / step - 1e-9) + 3 <= floor(hi / step + 1e-9))
                return step;
        }
    return 0;
}

/* On a log axis any decade-wide window holds exactly three of 1, 2, 5 x
 * 10^e, and at least three powers of two; a range narrower than a decade
 * gets 1..9 x 10^e (1, 2, 5 where those are too few), then a linear step. */
static tickset choose(int xs, double lo, double hi)
{
    double t[MAX_TICKS];
    if (xs != MP_RPAPER_LIN && lo > 0 && hi >= lo) {
        if (xs == MP_RPAPER_LOG2 && pow2_ticks(lo, hi, t, MAX_TICKS) >= 3)
            return (tickset){T_POW2, 0};
        if (hi < 10 * lo && decade_ticks(s1to9, 9, lo, hi, t, MAX_TICKS) >= 3)
            return (tickset){T_1TO9, 0};
        if (decade_ticks(s125, 3, lo, hi, t, MAX_TICKS) >= 3)
            return (tickset){T_125, 0};
    }
    double step = linear_step(lo, hi);
    return (tickset){step > 0 ? T_LIN : T_NONE, step};
}

static size_t emit(tickset k, double lo, double hi, double *t, size_t max)
{
    switch (k.kind) {
    case T_POW2: return pow2_ticks(lo, hi, t, max);
    case T_125: return decade_ticks(s125, 3, lo, hi, t, max);
    case T_1TO9: return decade_ticks(s1to9, 9, lo, hi, t, max);
    case T_LIN: return step_ticks(k.step, lo, hi, t, max);
    default: return 0;
    }
}

size_t mp_rpaper_ticks(int xs, double lo, double hi, double *t, size_t max, int *minor)
{
    tickset k = choose(xs, lo, hi);
    if (minor)
        *minor = k.kind == T_125;
    return emit(k, lo, hi, t, max);
}

const char *mp_rpaper_tick_label(double v, int xs, char *buf, size_t len)
{
    static const char *const si[] = {"", "k", "M", "G", "T", "P"};
    double a = fabs(v);
    size_t k = 0;
    if (xs != MP_RPAPER_LOG2)   /* powers of two read best as they are */
        while (a >= 1000 && k + 1 < sizeof si / sizeof si[0]) {
            a /= 1000;
            k++;
        }
    snprintf(buf, len, "%s%.6g%s", v < 0 ? "-" : "", a, si[k]);
    return buf;
}

/* One axis: its range and ticks, and what the layout needs of them. */
typedef struct axis {
    int ok, scale;
    double lo, hi;          /* the axis */
    double dlo, dhi;        /* the data */
    double t[MAX_TICKS];
    size_t nt;
    int minor;
    size_t widest;          /* characters of the longest label */
    size_t last;            /* characters of the highest label */
    int rotate;             /* x labels turned upright: too close side by side */
} axis;

/* The ticks of a: their kind from the data's range (the axis's when the
 * data are one value), placed over the axis's range. */
static void axis_ticks(axis *a)
{
    tickset k = choose(a->scale, a->dlo, a->dhi);
    if (k.kind == T_NONE)
        k = choose(a->scale, a->lo, a->hi);
    size_t n = emit(k, a->lo, a->hi, a->t, MAX_TICKS);
    a->minor = k.kind == T_125;
    a->nt = n;
    a->widest = a->last = 0;
    char b[32];
    for (size_t i = 0; i < n; i++) {
        size_t c = strlen(mp_rpaper_tick_label(a->t[i], a->scale, b, sizeof b));
        if (c > a->widest)
            a->widest = c;
        a->last = c;
    }
}

static void make_axis(const mp_rpaper *p, int which, axis *a)
{
    memset(a, 0, sizeof *a);
    a->scale = which ? p->ys : p->xs;
    if ((which == 0 && p->bars) || p->fixed || !data_range(p, which, &a->dlo, &a->dhi))
        return;
    a->ok = 1;
    axis_range(a->scale, which && p->bars, a->dlo, a->dhi, &a->lo, &a->hi);
    axis_ticks(a);
}

/* ---- the legend ----------------------------------------------------------- */

typedef struct box {
    double x0, x1, y0, y1;
} box;

typedef struct frame {   /* graph coordinates of one page */
    const axis *x, *y;
    double w, h;          /* the plot area, points */
    double font;
} frame;

static double gx(const frame *f, double v)
{
    double a = tr(f->x->lo, f->x->scale), b = tr(f->x->hi, f->x->scale);
    return (tr(v, f->x->scale) - a) / (b - a);
}

static double gy(const frame *f, double v)
{
    double a = tr(f->y->lo, f->y->scale), b = tr(f->y->hi, f->y->scale);
    return (tr(v, f->y->scale) - a) / (b - a);
}

static int overlaps(double a0, double a1, double b0, double b1)
{
    return a1 >= b0 && a0 <= b1;
}

/* What a series draws inside b: segments (lines) or the area between two
 * (bands) between neighbouring points, bars at the points. */
static int series_hits(const mp_rpaper *p, const frame *f, const mp_rpaper_ser *s, box b)
{
    const mp_rpaper_pt *q = &p->pts[s->first];
    for (size_t i = 0; i < s->n; i++) {
        double x = gx(f, q[i].x), lo = gy(f, q[i].lo), hi = gy(f, q[i].hi);
        if (x >= b.x0 && x <= b.x1 && overlaps(lo, hi, b.y0, b.y1))
            return 1;
        if (s->how == MP_RPAPER_ERRBARS || i + 1 >= s->n)
            continue;
        double xa = x, xb = gx(f, q[i + 1].x);
        double la = lo, ha = hi, lb = gy(f, q[i + 1].lo), hb = gy(f, q[i + 1].hi);
        if (xb < xa) {
            double t;
            t = xa, xa = xb, xb = t;
            t = la, la = lb, lb = t;
            t = ha, ha = hb, hb = t;
        }
        double c0 = fmax(xa, b.x0), c1 = fmin(xb, b.x1);
        if (c0 > c1)
            continue;
        double d = xb - xa, u0 = d > 0 ? (c0 - xa) / d : 0, u1 = d > 0 ? (c1 - xa) / d : 1;
        double l0 = la + u0 * (lb - la), l1 = la + u1 * (lb - la);
        double h0 = ha + u0 * (hb - ha), h1 = ha + u1 * (hb - ha);
        if (overlaps(fmin(l0, l1), fmax(h0, h1), b.y0, b.y1))
            return 1;
    }
    return 0;
}

static box label_box(const frame *f, const mp_rpaper_text *l)
{
    double pt = f->font;
    double right = gx(f, l->x) - l->offset * HCHAR * pt / f->w;
    double w = l->chars * HCHAR * pt / f->w, h = l->lines * VCHAR * pt / f->h;
    return (box){right - w, right, l->gy - h / 2, l->gy + h / 2};
}

/* 1 when b holds anything drawn; strict: marker lines count too. */
static int hits(const mp_rpaper *p, const frame *f, box b, int strict)
{
    for (size_t s = 0; s < p->nser; s++)
        if (series_hits(p, f, &p->ser[s], b))
            return 1;
    for (size_t i = 0; i < p->nh; i++) {
        double y = gy(f, p->hline[i]);
        if (y >= b.y0 && y <= b.y1)
            return 1;
    }
    for (size_t i = 0; strict && i < p->nv; i++) {
        double x = gx(f, p->vline[i]);
        if (x >= b.x0 && x <= b.x1)
            return 1;
    }
    for (size_t i = 0; i < p->nl; i++) {
        box l = label_box(f, &p->lab[i]);
        if (overlaps(l.x0, l.x1, b.x0, b.x1) && overlaps(l.y0, l.y1, b.y0, b.y1))
            return 1;
    }
    return 0;
}

/* The plot area of a page, points: the page less the tick labels and axis
 * labels around it (no title). */
static void plot_area(const mp_rpaper *p, const mp_rpaper_page *pg, const axis *x,
                      const axis *y, double *w, double *h)
{
    double hc = HCHAR * pg->font_pt, vc = VCHAR * pg->font_pt;
    double left = ((double)(y->widest ? y->widest : 4) + 1.5) * hc + 2.0 * vc;
    double right = fmax(1.5, (double)x->last / 2 + 0.5) * hc;
    double bottom = (x->rotate ? 2.6 + (double)x->widest * DIGIT / VCHAR : 3.6) * vc;
    if (p->bars)   /* table.gp: the names slanted by 20 degrees */
        bottom = 3.6 * vc + (double)p->xnames * 0.5 * pg->font_pt * 0.342;
    *w = pg->w_in * 72 - left - right;
    *h = pg->h_in * 72 - bottom - 1.2 * vc;
}

/* x labels side by side closer than their widths at this page. */
static int crowded(const axis *x, double w, double font)
{
    char b[32];
    double prev = NAN, pw = 0;
    frame f = {.x = x, .y = x, .w = w, .h = 1, .font = font};
    for (size_t i = 0; i < x->nt; i++) {
        double at = gx(&f, x->t[i]) * w;
        double cw = (double)strlen(mp_rpaper_tick_label(x->t[i], x->scale, b, sizeof b)) *
                    DIGIT * font;
        if (isfinite(prev) && at - prev < (cw + pw) / 2 + 0.6 * font)
            return 1;
        prev = at;
        pw = cw;
    }
    return 0;
}

/* gnuplot's `set key` for one page: inside where a place is free (strictly,
 * then over marker lines), else below the plot. */
static void key_for(const mp_rpaper *p, const axis *x, const axis *y,
                    const mp_rpaper_page *pg, char *out, size_t len)
{
    static const char *const below = "set key below horizontal Right noreverse noopaque "
                                     "samplen 3 spacing 1.3";
    if (p->fixed) {   /* prof.gp's own: at the right, as in the PNG */
        snprintf(out, len, "set key outside right top vertical");
        return;
    }
    if (p->bars && y->ok) {   /* above the bars: the y axis leaves it room (bar_room) */
        snprintf(out, len, "set key inside right top vertical Left reverse opaque samplen %d "
                 "spacing %g", KEY_SAMPLEN, KEY_SPACING);
        return;
    }
    if (!p->nkey || !x->ok || !y->ok) {
        snprintf(out, len, "%s", below);
        return;
    }
    frame f = {.x = x, .y = y, .font = pg->font_pt};
    plot_area(p, pg, x, y, &f.w, &f.h);
    double hc = HCHAR * pg->font_pt / f.w, vc = VCHAR * pg->font_pt / f.h;
    double kw = ((double)p->keychars + KEY_SAMPLEN + 2.6) * hc;
    double kh = ((double)p->nkey * KEY_SPACING + 0.3) * vc;
    double ox = 1.1 * hc, oy = 0.3 * vc, px = 0.8 * hc, py = 0.35 * vc;
    struct { const char *pos; int horiz; } cand[] = {
        {"left top", 0},    {"right top", 0},    {"right bottom", 0}, {"left bottom", 0},
        {"center top", 0},  {"center bottom", 0}, {"left center", 0}, {"right center", 0},
        {"center top", 1},  {"center bottom", 1},
    };
    for (int strict = 1; strict >= 0; strict--)
        for (size_t c = 0; c < sizeof cand / sizeof cand[0]; c++) {
            double w = cand[c].horiz ? (double)p->nkey * kw : kw;
            double h = cand[c].horiz ? (KEY_SPACING + 0.3) * vc : kh;
            if (w > 0.96 || h > 0.96)
                continue;
            const char *pos = cand[c].pos;
            box b;
            b.x0 = !strncmp(pos, "left", 4) ? ox : !strncmp(pos, "right", 5) ? 1 - ox - w
                                                                             : 0.5 - w / 2;
            b.y0 = strstr(pos, "top") ? 1 - oy - h : strstr(pos, "bottom") ? oy : 0.5 - h / 2;
            if (!strcmp(pos, "left center") || !strcmp(pos, "right center"))
                b.y0 = 0.5 - h / 2;
            b.x1 = b.x0 + w + px;
            b.y1 = b.y0 + h + py;
            b.x0 -= px;
            b.y0 -= py;
            if (hits(p, &f, b, strict))
                continue;
            snprintf(out, len, "set key inside %s %s Left reverse opaque samplen %d "
                     "spacing %g", pos, cand[c].horiz ? "horizontal" : "vertical",
                     KEY_SAMPLEN, KEY_SPACING);
            return;
        }
    snprintf(out, len, "%s", below);
}

/* paper_x or paper_y: "set xrange [lo:hi]; set xtics nomirror out ('1' 1,
 * ...); set xtics add ('' 3 1, ...)", the minor ticks unlabelled. */
static void axis_cmd(FILE *f, const axis *a, const char *name)
{
    char b[32];
    fprintf(f, "paper_%s = \"set %srange [%.6g:%.6g]; set %stics nomirror out %s(", name,
            name, a->lo, a->hi, name, a->rotate ? "rotate by 90 right " : "");
    for (size_t i = 0; i < a->nt; i++)
        fprintf(f, "%s'%s' %.10g", i ? ", " : "", mp_rpaper_tick_label(a->t[i], a->scale, b,
                                                                       sizeof b), a->t[i]);
    fputc(')', f);
    if (a->minor) {   /* unlabelled: 3, 4, 6, 7, 8, 9 x 10^e */
        static const double ms[] = {3, 4, 6, 7, 8, 9};
        double t[MAX_TICKS];
        size_t n = decade_ticks(ms, 6, a->lo, a->hi, t, MAX_TICKS);
        if (n)
            fprintf(f, "; set %stics add (", name);
        for (size_t i = 0; i < n; i++)
            fprintf(f, "%s'' %.10g 1", i ? ", " : "", t[i]);
        if (n)
            fputc(')', f);
    }
    fputs("\"\n", f);
}

/* Bars: the top of the y axis raised so that the legend, at the top right,
 * sits above the tallest bar at either width. */
static void bar_room(const mp_rpaper *p, const axis *x, axis *y)
{
    double need = 0;
    for (size_t i = 0; i < 2; i++) {
        const mp_rpaper_page *pg = &mp_rpaper_pages[i];
        double w, h, vc = VCHAR * pg->font_pt;
        plot_area(p, pg, x, y, &w, &h);
        need = fmax(need, (((double)p->nkey * KEY_SPACING + 0.3) + 0.3 + 0.6) * vc / h);
    }
    if (need < 0.8 && y->dhi > 0) {
        y->hi = y->dhi / (1 - need);
        axis_ticks(y);
    }
}

int mp_rpaper_write(const mp_rpaper *p, FILE *f)
{
    if (p->oom)
        return -ENOMEM;
    axis x, y;
    make_axis(p, 0, &x);
    make_axis(p, 1, &y);
    if (x.ok) {
        double w, h;
        plot_area(p, &mp_rpaper_pages[0], &x, &y, &w, &h);
        x.rotate = crowded(&x, w, mp_rpaper_pages[0].font_pt);
    }
    if (p->bars && y.ok && p->nkey)
        bar_room(p, &x, &y);
    fputs("# --paper: the PDFs' axes from the data's range, their ticks and the legend's "
          "place\n# at each width (render.gp applies them to the PDFs; report/paper.c)\n"
          "paper = 1\n", f);
    if (x.ok && x.nt)
        axis_cmd(f, &x, "x");
    if (y.ok && y.nt)
        axis_cmd(f, &y, "y");
    if (p->fixed)   /* prof.gp sizes its tick labels for the PNG */
        fputs("paper_x = \"set xtics font ''\"\n", f);
    for (size_t i = 0; i < p->nl; i++)   /* labels in the figure's font */
        fprintf(f, "%sset label %d font ''%s", i ? "; " : "paper_labels = \"", p->lab[i].tag,
                i + 1 == p->nl ? "\"\n" : "");
    char key[256];
    key_for(p, &x, &y, &mp_rpaper_pages[0], key, sizeof key);
    fprintf(f, "paper_key = \"%s\"   # %.1f in\n", key, mp_rpaper_pages[0].w_in);
    key_for(p, &x, &y, &mp_rpaper_pages[1], key, sizeof key);
    fprintf(f, "paper_key2 = \"%s\"   # %.0f in\n", key, mp_rpaper_pages[1].w_in);
    return 0;
}
