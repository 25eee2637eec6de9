/* SPDX-License-Identifier: MIT */
/* test_report_paper.c - `report --paper`: the figures' PDFs for a paper.
 *
 * Without gnuplot: the ticks put at least three labels in every decade of a
 * range (and three on a range narrower than a decade); on the fixtures'
 * figures each wrapper's axes (paper_x, paper_y) span the data's range, read
 * here from the .dat files, with margins and not widened to whole decades,
 * their labelled ticks meeting the same rule; the legend sits inside where
 * the data leave room, and never over a label (a label in the corner it
 * would take moves it to the next free one, at 3.5 in and 7 in); a fit is drawn exactly when the caption names it, and
 * a caption naming none says so; without --paper the wrappers are those
 * with --paper less the paper block, and hold no paper variable.
 * With gnuplot: the state each PDF is drawn in (gnuplot's `save` after the
 * figure's script, formats = "pdf" or "pdf2"): no title, pdfcairo at 3.5 in
 * or 7 in, the legend inside, solid error bars, the ticks written; and the
 * same PDFs without --paper keep the title and dashed error bars. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "test_util.h"
#include "report/fig.h"
#include "report/paper.h"
#include "report/plot.h"
#include "report/report.h"

static char top[64];

/* ---- ticks ---------------------------------------------------------------- */

/* The rule: on a log axis every decade-wide window inside [lo, hi] holds at
 * least three labelled ticks, and a range narrower than a decade at least
 * three; on a linear one at least three.  Ticks ascend inside the range. */
static void check_rule(const char *what, int log, const double *t, size_t n, double lo,
                       double hi)
{
    double e = 1e-9 * fmax(fabs(lo), fabs(hi));
    if (n < 3)
        fail_msg("%s: %zu labelled ticks on [%g, %g]", what, n, lo, hi);
    for (size_t i = 0; i < n; i++) {
        if (t[i] < lo - e || t[i] > hi + e)
            fail_msg("%s: tick %g outside [%g, %g]", what, t[i], lo, hi);
        if (i && !(t[i] > t[i - 1]))
            fail_msg("%s: ticks not ascending at %g", what, t[i]);
    }
    if (!log || hi < 10 * lo)
        return;
    /* the fewest ticks a window holds: one starting at lo or just after a tick */
    for (size_t s = 0; s <= n; s++) {
        double a = s == 0 ? lo : t[s - 1] * (1 + 1e-9), b = 10 * a;
        if (b > hi * (1 + 1e-9))
            break;
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            k += t[i] >= a && t[i] <= b;
        if (k < 3)
            fail_msg("%s: the decade [%g, %g] of [%g, %g] holds %zu labelled ticks", what, a,
                     b, lo, hi, k);
    }
}

static void ticks_per_decade(void **st)
{
    (void)st;
    static const struct { int scale; double lo, hi; } r[] = {
        {MP_RPAPER_LOG10, 1, 10},        {MP_RPAPER_LOG10, 10, 10000},
        {MP_RPAPER_LOG10, 230, 1000},    {MP_RPAPER_LOG10, 210, 480},
        {MP_RPAPER_LOG10, 1, 1.5},       {MP_RPAPER_LOG10, 0.12, 700},
        {MP_RPAPER_LOG10, 64, 4096},     {MP_RPAPER_LOG10, 2.0, 2.2},
        {MP_RPAPER_LOG10, 0.001, 0.005}, {MP_RPAPER_LOG10, 5e5, 2e9},
        {MP_RPAPER_LOG10, 1.05, 199.5},  {MP_RPAPER_LOG10, 7.6, 13182},
        {MP_RPAPER_LOG2, 1, 64},         {MP_RPAPER_LOG2, 1, 4},
        {MP_RPAPER_LOG2, 3, 5},          {MP_RPAPER_LOG2, 0.85, 75.6},
        {MP_RPAPER_LIN, 0, 3},           {MP_RPAPER_LIN, -5, 5},
        {MP_RPAPER_LIN, 12000, 13000},   {MP_RPAPER_LIN, 0.98, 1.02},
    };
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++) {
        double t[128];
        char what[64];
        size_t n = mp_rpaper_ticks(r[i].scale, r[i].lo, r[i].hi, t, 128, NULL);
        snprintf(what, sizeof what, "scale %d [%g, %g]", r[i].scale, r[i].lo, r[i].hi);
        check_rule(what, r[i].scale != MP_RPAPER_LIN, t, n, r[i].lo, r[i].hi);
    }
    char b[32];
    assert_string_equal(mp_rpaper_tick_label(1000, MP_RPAPER_LOG10, b, sizeof b), "1k");
    assert_string_equal(mp_rpaper_tick_label(200000, MP_RPAPER_LOG10, b, sizeof b), "200k");
    assert_string_equal(mp_rpaper_tick_label(2e6, MP_RPAPER_LOG10, b, sizeof b), "2M");
    assert_string_equal(mp_rpaper_tick_label(0.5, MP_RPAPER_LOG10, b, sizeof b), "0.5");
    assert_string_equal(mp_rpaper_tick_label(0.3 * 1.0000000000000002, MP_RPAPER_LIN, b,
                                             sizeof b), "0.3");
    assert_string_equal(mp_rpaper_tick_label(1024, MP_RPAPER_LOG2, b, sizeof b), "1024");
}

/* ---- the wrappers of the fixtures ------------------------------------------ */

static char *slurp_in(const char *dir, const char *name)
{
    char p[700];
    snprintf(p, sizeof p, "%s/figures/%s", dir, name);
    return mp_test_slurp(p);
}

/* The value of `NAME = "..."` (a plain string) in a wrapper, or "". */
static void var(const char *w, const char *name, char *out, size_t len)
{
    char key[80];
    snprintf(key, sizeof key, "\n%s = \"", name);
    const char *p = strstr(w, key);
    out[0] = 0;
    if (p) {
        p += strlen(key);
        snprintf(out, len, "%.*s", (int)strcspn(p, "\""), p);
    }
}

static int has_var(const char *w, const char *name)
{
    char key[80];
    snprintf(key, sizeof key, "\n%s = ", name);
    return strstr(w, key) != NULL;
}

static double num_var(const char *w, const char *name)
{
    char key[80];
    snprintf(key, sizeof key, "\n%s = ", name);
    const char *p = strstr(w, key);
    return p ? atof(p + strlen(key)) : NAN;
}

/* An axis as paper_x or paper_y writes it. */
typedef struct paxis {
    int ok;
    double lo, hi;
    double t[256];      /* labelled ticks */
    size_t n;
    char labels[256][16];
} paxis;

static void parse_axis(const char *w, const char *axis, paxis *a)
{
    char key[32], pre[64];
    memset(a, 0, sizeof *a);
    snprintf(key, sizeof key, "\npaper_%s = \"", axis);
    const char *p = strstr(w, key);
    if (!p)
        return;
    p += strlen(key);
    snprintf(pre, sizeof pre, "set %srange [", axis);
    if (strncmp(p, pre, strlen(pre)) || sscanf(p + strlen(pre), "%lf:%lf", &a->lo, &a->hi) != 2)
        fail_msg("paper_%s does not start with its range: %.80s", axis, p);
    snprintf(pre, sizeof pre, "set %stics nomirror out ", axis);
    const char *l = strstr(p, pre);
    if (!l || !(l = strchr(l, '(')))
        fail_msg("paper_%s has no tick list", axis);
    for (l++; *l == '\''; ) {
        const char *q = strchr(l + 1, '\'');
        assert_non_null(q);
        char *end;
        double v = strtod(q + 1, &end);
        if (q > l + 1 && a->n < 256) {   /* labelled; '' are the minor ticks */
            snprintf(a->labels[a->n], sizeof a->labels[0], "%.*s", (int)(q - l - 1), l + 1);
            a->t[a->n++] = v;
        }
        l = end + strspn(end, " 0123456789");   /* a level */
        if (*l == ',')
            l += 2;
    }
    a->ok = 1;
}

/* min and max of column col over the data file (positive values only when
 * log); 0 when the file has none. */
static int dat_range(const char *dir, const char *file, const char *col, int log, double *lo,
                     double *hi)
{
    char *t = slurp_in(dir, file);
    if (!t)
        fail_msg("%s/figures/%s missing", dir, file);
    int c = -1, found = 0;
    char *save = NULL;
    for (char *line = strtok_r(t, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (*line == '#')
            continue;
        char *s2 = NULL;
        int k = 0;
        if (c < 0) {
            for (char *w = strtok_r(line, " ", &s2); w; w = strtok_r(NULL, " ", &s2), k++)
                if (!strcmp(w, col))
                    c = k;
            if (c < 0)
                fail_msg("%s has no column %s", file, col);
            continue;
        }
        for (char *w = strtok_r(line, " ", &s2); w; w = strtok_r(NULL, " ", &s2), k++) {
            char *end;
            double v = strtod(w, &end);
            if (k != c || *end || end == w || (log && !(v > 0)))
                continue;
            *lo = found ? fmin(*lo, v) : v;
            *hi = found ? fmax(*hi, v) : v;
            found = 1;
        }
    }
    free(t);
    return found;
}

static void widen(int *any, double *lo, double *hi, double a, double b)
{
    *lo = *any ? fmin(*lo, a) : a;
    *hi = *any ? fmax(*hi, b) : b;
    *any = 1;
}

/* The axis spans the data's range, with margins of at most 10% of the span
 * (of its decades on a log axis) a side: from the data's range, not
 * widened to whole decades; its labelled ticks meet the rule over it. */
static void check_axis(const char *fig, const char *axis, const paxis *a, int log, double lo,
                       double hi)
{
    char what[256];
    snprintf(what, sizeof what, "%s %s axis", fig, axis);
    if (!a->ok)
        fail_msg("%s: no paper_%s", fig, axis);
    double span = log ? log10(hi / lo) : hi - lo;
    double below = log ? log10(lo / a->lo) : lo - a->lo, above = log ? log10(a->hi / hi)
                                                                       : a->hi - hi;
    double room = fmax(0.1 * span, log ? 0.16 : 0.11 * fmax(fabs(hi), 1e-9));
    if (below < -1e-9 || above < -1e-9)
        fail_msg("%s [%g, %g] leaves out data of [%g, %g]", what, a->lo, a->hi, lo, hi);
    if (below > room || above > room)
        fail_msg("%s [%g, %g] is wider than the data's [%g, %g] and their margins", what,
                 a->lo, a->hi, lo, hi);
    /* labels within the data's range meet the rule over it */
    double t[256];
    size_t n = 0;
    for (size_t i = 0; i < a->n; i++)
        if (a->t[i] >= lo * (1 - 1e-9) - (log ? 0 : 1e-9) && a->t[i] <= hi * (1 + 1e-9) + 1e-12)
            t[n++] = a->t[i];
    check_rule(what, log, t, n, lo, hi);
}

/* The data range of a per-call figure (cost, ratio, counter, lines) from
 * its data files, as its kind script reads them. */
static void per_call_range(const char *dir, const char *name, const char *w)
{
    char mode[64], kind[64], backends[256], counter[128], file[300];
    var(w, "mode", mode, sizeof mode);
    var(w, "kind", kind, sizeof kind);
    var(w, "backends", backends, sizeof backends);
    var(w, "counter", counter, sizeof counter);
    int cost = !strncmp(name, "cost_", 5), ratio = !strncmp(name, "ratio_", 6);
    int lines = !strncmp(name, "lines_", 6);
    int logy = !(has_var(w, "logy") && num_var(w, "logy") == 0);
    int anyx = 0, anyy = 0;
    double xlo = 0, xhi = 0, ylo = 0, yhi = 0, a, b;
    static const char *const cost_cols[] = {"p10", "p50", "p90", "ci_lo", "ci_hi"};
    char *save = NULL;
    for (char *be = strtok_r(backends, " ", &save); be; be = strtok_r(NULL, " ", &save)) {
        if (ratio && !strcmp(be, "epoll"))
            continue;
        snprintf(file, sizeof file, "data_%s_%s_%s.dat", mode, kind, be);
        if (dat_range(dir, file, lines ? "pollfd_lines" : "nfds", 1, &a, &b))
            widen(&anyx, &xlo, &xhi, a, b);
        for (size_t c = 0; c < (cost ? 5 : 1); c++)
            if (dat_range(dir, file, cost ? cost_cols[c] : ratio ? "ratio_epoll" : counter,
                          logy, &a, &b))
                widen(&anyy, &ylo, &yhi, a, b);
    }
    if (ratio)   /* the parity line */
        widen(&anyy, &ylo, &yhi, 1, 1);
    if (lines && has_var(w, "fit_b")) {   /* the fit, a line: its ends */
        double fa = num_var(w, "fit_a"), fb = num_var(w, "fit_b");
        double f0 = fa + fb * num_var(w, "fit_lo"), f1 = fa + fb * num_var(w, "fit_hi");
        widen(&anyy, &ylo, &yhi, fmin(f0, f1), fmax(f0, f1));
    }
    assert_true(anyx && anyy);
    paxis x, y;
    parse_axis(w, "x", &x);
    parse_axis(w, "y", &y);
    check_axis(name, "x", &x, 1, xlo, xhi);
    check_axis(name, "y", &y, logy, ylo, yhi);
}

static int starts(const char *s, const char *p)
{
    return !strncmp(s, p, strlen(p));
}

/* The wrapper less its paper block: what the report writes without --paper. */
static char *without_paper(const char *w)
{
    char *out = malloc(strlen(w) + 1), *o = out;
    assert_non_null(out);
    for (const char *l = w; *l;) {
        size_t k = strcspn(l, "\n") + (l[strcspn(l, "\n")] == '\n');
        if (!starts(l, "paper") && !starts(l, "# --paper: ") &&
            !starts(l, "# at each width (render.gp applies"))
            memcpy(o, l, k), o += k;
        l += k;
    }
    *o = 0;
    return out;
}

static void copy_fixture(const char *fixture, char *dir, size_t len, const char *tag)
{
    char cmd[800];
    snprintf(dir, len, "%s/%s", top, tag);
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(cmd, sizeof cmd, "cp '%s/report/%s/results.json' '%s/'", MP_TEST_FIXTURES,
             fixture, dir);
    assert_int_equal(system(cmd), 0);
}

static void build(const char *dir, int how)
{
    mp_err err;
    mp_err_clear(&err);
    if (mp_report_build(dir, how, &err) != 0)
        fail_msg("mp_report_build(%s, %d): %s", dir, how, err.msg);
}

/* The figures' wrappers of a report in dir: NAME.gp holding `out = `. */
static size_t wrappers(const char *dir, char names[][160], size_t max)
{
    char p[700];
    snprintf(p, sizeof p, "%s/figures", dir);
    DIR *d = opendir(p);
    assert_non_null(d);
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        size_t l = strlen(e->d_name);
        if (l < 4 || strcmp(e->d_name + l - 3, ".gp"))
            continue;
        char *w = slurp_in(dir, e->d_name);
        if (w && strstr(w, "\nout = "))
            snprintf(names[n++], sizeof names[0], "%.*s", (int)(l - 3), e->d_name);
        free(w);
    }
    closedir(d);
    return n;
}

static void check_report(const char *fixture, int via_cli)
{
    char pdir[128], ddir[128], cmd[900], names[128][160];
    char tag[64];
    snprintf(tag, sizeof tag, "%s-paper", fixture);
    copy_fixture(fixture, pdir, sizeof pdir, tag);
    snprintf(tag, sizeof tag, "%s-default", fixture);
    copy_fixture(fixture, ddir, sizeof ddir, tag);
    if (via_cli) {   /* the option, through report's table */
        snprintf(cmd, sizeof cmd, "'%s' report '%s' --paper --no-plots >/dev/null", MP_TEST_BIN,
                 pdir);
        assert_int_equal(system(cmd), 0);
    } else {
        build(pdir, MP_RFIG_PAPER);
    }
    build(ddir, 0);
    size_t n = wrappers(pdir, names, 128), inside = 0, percall = 0;
    assert_true(n > 0);
    assert_int_equal(wrappers(ddir, names + n, 128 - n), n);
    for (size_t i = 0; i < n; i++) {
        const char *name = names[i];
        char file[200], key[256], key2[256];
        snprintf(file, sizeof file, "%.159s.gp", name);
        char *w = slurp_in(pdir, file), *d = slurp_in(ddir, file);
        if (!w || !d)
            fail_msg("%s: %s missing with or without --paper", fixture, file);
        /* without --paper: the same wrapper, less the paper block */
        if (strstr(d, "paper"))
            fail_msg("%s without --paper names paper", file);
        char *less = without_paper(w);
        if (strcmp(less, d))
            fail_msg("%s: with --paper less its paper block differs from without:\n%s\n--\n%s",
                     file, less, d);
        free(less);
        if (!strstr(w, "\npaper = 1\n"))
            fail_msg("%s: no paper = 1", file);
        var(w, "paper_key", key, sizeof key);
        var(w, "paper_key2", key2, sizeof key2);
        if (!starts(key, "set key ") || !starts(key2, "set key "))
            fail_msg("%s: paper_key \"%s\", paper_key2 \"%s\"", file, key, key2);
        /* a fit drawn when the caption names it, else the caption says none is */
        const char *cap = strchr(w, '-');
        size_t caplen = strcspn(cap, "\n");
        char caption[600];
        snprintf(caption, sizeof caption, "%.*s", (int)caplen, cap);
        int names_fit = strstr(caption, "with the fit") != NULL;
        int says_none = strstr(caption, "no fit drawn") != NULL;
        if (names_fit != has_var(w, "fit_b") ||
            (starts(name, "lines_") && names_fit == says_none))
            fail_msg("%s: caption \"%s\" against fit_b %s", file, caption,
                     has_var(w, "fit_b") ? "set" : "unset");
        if (strstr(caption, " fit") && !names_fit && !says_none)
            fail_msg("%s: caption \"%s\" speaks of a fit", file, caption);
        if (starts(name, "cost_") || starts(name, "ratio_") || starts(name, "counter_") ||
            starts(name, "lines_")) {
            per_call_range(pdir, name, w);
            percall++;
            inside += starts(key, "set key inside ") && starts(key2, "set key inside ");
        } else if (!starts(name, "prof_") || starts(name, "prof_fd_")) {
            /* the other kinds: each axis written meets the rule over its range */
            paxis a;
            for (int ax = 0; ax < 2; ax++) {
                parse_axis(w, ax ? "y" : "x", &a);
                if (a.ok)
                    check_rule(name, !strstr(w, ax ? "logy = 0" : "logx = 0") &&
                               !strstr(w, "bars = 1"), a.t, a.n, a.lo, a.hi);
            }
        }
        free(w);
        free(d);
    }
    /* every per-call figure of these fixtures has a free corner at both widths */
    if (inside != percall)
        fail_msg("%s: %zu of %zu per-call figures have their legend inside at both widths",
                 fixture, inside, percall);
}

static void fixtures_laid_out(void **st)
{
    (void)st;
    check_report("synthetic", 1);
    check_report("profile", 0);      /* intervals: error bars */
    check_report("simulated", 0);    /* lines figures without a fit */
    check_report("experiments_only", 0);
    check_report("arm64", 0);
}

/* ---- as gnuplot draws the PDFs ------------------------------------------- */

/* gnuplot's state once NAME.gp has drawn only fmt ("pdf", "pdf2"). */
static char *drawn_state(const char *dir, const char *name, const char *fmt)
{
    char cmd[1200], state[300];
    snprintf(state, sizeof state, "%s/state-%s-%s.gp", top, name, fmt);
    snprintf(cmd, sizeof cmd, "cd '%s/figures' && gnuplot -e 'formats = \"%s\"' %s.gp "
             "-e 'save \"%s\"' 2>/dev/null", dir, fmt, name, state);
    if (system(cmd) != 0)
        fail_msg("%s", cmd);
    char *s = mp_test_slurp(state);
    assert_non_null(s);
    return s;
}

static void drawn_for_paper(void **st)
{
    (void)st;
    if (!mp_plot_gnuplot_found(NULL, 0)) {
        fprintf(stderr, "gnuplot is not installed: the drawn state is not checked\n");
        return;
    }
    char pdir[128], ddir[128];
    copy_fixture("profile", pdir, sizeof pdir, "drawn-paper");
    copy_fixture("profile", ddir, sizeof ddir, "drawn-default");
    build(pdir, MP_RFIG_DRAW | MP_RFIG_PAPER);
    build(ddir, MP_RFIG_DRAW);
    static const char *const figs[] = {"cost_wakeup_eventfd", "ratio_ready_eventfd",
                                       "prof_fd_wakeup_eventfd_select", "prof_ready_eventfd"};
    static const char *const fmts[] = {"pdf", "pdf2"}, *const size[] = {"size 3.50in, 2.60in",
                                                                       "size 7.00in, 4.20in"};
    for (size_t i = 0; i < sizeof figs / sizeof figs[0]; i++)
        for (size_t f = 0; f < 2; f++) {
            char file[200], key[256];
            snprintf(file, sizeof file, "%s.gp", figs[i]);
            char *w = slurp_in(pdir, file);
            var(w, f ? "paper_key2" : "paper_key", key, sizeof key);
            char *s = drawn_state(pdir, figs[i], fmts[f]);
            char *d = drawn_state(ddir, figs[i], fmts[f]);
            if (!strstr(s, "# set terminal pdfcairo") || !strstr(s, size[f]) ||
                !strstr(d, size[f]))
                fail_msg("%s.%s: not pdfcairo %s", figs[i], fmts[f], size[f]);
            /* no title: the caption holds it; without --paper it is there */
            if (!strstr(s, "\nset title \"\" \n"))
                fail_msg("%s.%s for a paper has a title", figs[i], fmts[f]);
            if (strstr(d, "\nset title \"\" \n"))
                fail_msg("%s.%s without --paper has no title", figs[i], fmts[f]);
            /* the legend where paper_key puts it */
            const char *where = key + strlen("set key ");
            char want[64];
            snprintf(want, sizeof want, "\nset key %.*s", (int)strcspn(where, " "), where);
            if (!strstr(s, want))
                fail_msg("%s.%s: the key is not %s as \"%s\" says", figs[i], fmts[f], want + 1,
                         key);
            if (!starts(figs[i], "prof_") && !strstr(s, "\nset key inside "))
                fail_msg("%s.%s: the key is not inside", figs[i], fmts[f]);
            /* the labelled ticks written are gnuplot's */
            paxis a;
            parse_axis(w, "y", &a);
            for (size_t k = 0; a.ok && k < a.n; k++) {
                char t[64];
                snprintf(t, sizeof t, "\"%s\" ", a.labels[k]);
                const char *y = strstr(s, "\nset ytics  norangelimit");
                if (!y || !strstr(y, t))
                    fail_msg("%s.%s: y tick \"%s\" not drawn", figs[i], fmts[f], a.labels[k]);
            }
            /* error bars: solid for a paper, in the series' dash pattern without */
            if (starts(figs[i], "cost_")) {
                const char *plot = strstr(s, "\nplot "), *dplot = strstr(d, "\nplot ");
                assert_non_null(plot);
                assert_non_null(dplot);
                if (!strstr(plot, "with yerrorbars ls i dt 1 "))
                    fail_msg("%s.%s: error bars not solid", figs[i], fmts[f]);
                if (strstr(dplot, "dt 1 ps 0"))
                    fail_msg("%s.%s without --paper: solid error bars", figs[i], fmts[f]);
            }
            free(s);
            free(d);
            free(w);
        }
}

/* ---- the legend and the labels ------------------------------------------- */

/* The legend line of one page (paper_key or paper_key2) in what
 * mp_rpaper_write wrote. */
static void key_line(const char *w, const char *var, char *out, size_t len)
{
    char pat[32];
    snprintf(pat, sizeof pat, "\n%s = \"", var);
    const char *at = strstr(w, pat);
    assert_non_null(at);
    at += strlen(pat);
    const char *end = strchr(at, '"');
    assert_non_null(end);
    snprintf(out, len, "%.*s", (int)(end - at), at);
}

/* A line from the bottom left to the top right leaves the top left and the
 * bottom right free; the legend takes the top left (the first place tried)
 * until a label is put there, then the bottom right, at both widths. */
static void labels_keep_legend_off(void **st)
{
    (void)st;
    double x[] = {10, 100, 1000, 10000}, y[] = {1, 10, 100, 1000};
    for (int label = 0; label <= 1; label++) {
        mp_rpaper p;
        mp_rpaper_init(&p, MP_RPAPER_LOG10, MP_RPAPER_LOG10);
        assert_int_equal(mp_rpaper_series(&p, MP_RPAPER_LINE, x, y, NULL, 4), 0);
        mp_rpaper_key(&p, "poll");
        mp_rpaper_key(&p, "epoll");
        if (label)   /* right-aligned at N = 30, near the top: over the legend's corner */
            mp_rpaper_label(&p, 1, 30, 0.92, 14, 1, 0);
        char *w = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&w, &len);
        assert_non_null(f);
        assert_int_equal(mp_rpaper_write(&p, f), 0);
        assert_int_equal(fclose(f), 0);
        for (int page = 0; page < 2; page++) {
            char key[256];
            key_line(w, page ? "paper_key2" : "paper_key", key, sizeof key);
            if (!strstr(key, label ? "inside right bottom" : "inside left top"))
                fail_msg("%s, %s: %s", label ? "a label at the top left" : "no label",
                         page ? "7 in" : "3.5 in", key);
        }
        free(w);
        mp_rpaper_free(&p);
    }
}

static int setup(void **st)
{
    (void)st;
    return mp_test_mkdtemp(top, sizeof top, "paper");
}

static int teardown(void **st)
{
    (void)st;
    return mp_test_rmtree(top);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ticks_per_decade),
        cmocka_unit_test(labels_keep_legend_off),
        cmocka_unit_test(fixtures_laid_out),
        cmocka_unit_test(drawn_for_paper),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
