/* SPDX-License-Identifier: MIT */
/* test_report_figures.c - figures through gnuplot: every figure of the
 * synthetic fixture comes out as non-empty PNG, SVG and PDF (3.5 in and 7 in,
 * fonts embedded) with the right magic bytes, draws the series of its data
 * with labelled decades on its log axes, report.md embeds them, a figure's .gp redraws it from the
 * figures directory alone, and a failing script is reported.  Skips (77)
 * when gnuplot is not installed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_util.h"
#include "report/plot.h"
#include "report/report.h"

static char dir[64];

static void check_file(const char *name, const char *ext, const char *magic, size_t at_most)
{
    char p[600], buf[4096];
    snprintf(p, sizeof p, "%s/figures/%s.%s", dir, name, ext);
    FILE *f = fopen(p, "rb");
    if (!f)
        fail_msg("%s was not written", p);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    if (n < 100)
        fail_msg("%s is only %zu bytes", p, n);
    int found = 0;
    for (size_t i = 0; i + strlen(magic) <= n && i <= at_most; i++)
        found |= !memcmp(buf + i, magic, strlen(magic));
    if (!found)
        fail_msg("%s does not start like a .%s file", p, ext);
}

static size_t slurped;   /* bytes read by the last slurp_fig */

/* needle in the first n bytes of b (PDFs hold NUL bytes) */
static const char *find(const char *b, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (!memcmp(b + i, needle, k))
            return b + i;
    return NULL;
}

static char *slurp_fig(const char *name, const char *ext)
{
    char p[600];
    snprintf(p, sizeof p, "%s/figures/%s%s", dir, name, ext);
    char *b = mp_test_slurp_n(p, &slurped);
    if (!b)
        fail_msg("%s was not written", p);
    return b;
}

/* The page width of a PDF in points (its first MediaBox), 0 if none. */
static double pdf_width(const char *name, const char *suffix)
{
    char *b = slurp_fig(name, suffix);
    double x0, y0, w = 0, h;
    const char *m = find(b, slurped, "/MediaBox [");
    if (!m || sscanf(m, "/MediaBox [ %lf %lf %lf %lf", &x0, &y0, &w, &h) != 4)
        w = 0;
    free(b);
    return w;
}

static void all_formats(const char *name)
{
    check_file(name, "png", "\x89PNG", 0);
    check_file(name, "pdf", "%PDF", 0);
    check_file(name, "svg", "<svg", 400);
    /* papers: 3.5 in (252 pt) single column, 7 in (504 pt) double column,
     * vector with the fonts embedded */
    double w1 = pdf_width(name, ".pdf"), w2 = pdf_width(name, "-2col.pdf");
    if (w1 != 252 || w2 != 504)
        fail_msg("%s: PDF widths %g and %g pt, expected 252 (3.5 in) and 504 (7 in)", name,
                 w1, w2);
    char *b = slurp_fig(name, "-2col.pdf");
    if (!find(b, slurped, "/FontFile"))
        fail_msg("%s-2col.pdf has no embedded font", name);
    free(b);
}

/* What an SVG draws: each series' title, and labelled decade ticks. */
static void svg_series(const char *name, const char *const *titles, size_t n)
{
    char *b = slurp_fig(name, ".svg"), t[200];
    for (size_t i = 0; i < n; i++) {
        snprintf(t, sizeof t, "<title>%s</title>", titles[i]);
        if (!strstr(b, t))
            fail_msg("%s.svg draws no series titled \"%s\"", name, titles[i]);
    }
    free(b);
}

static int svg_has(const char *name, const char *s)
{
    char *b = slurp_fig(name, ".svg");
    int r = strstr(b, s) != NULL;
    free(b);
    return r;
}

/* Where the SVG draws `text` (its <text>'s translate(x,y)): 1 when found. */
static int svg_text_at(const char *name, const char *text, double *x, double *y)
{
    char *b = slurp_fig(name, ".svg");
    char *t = strstr(b, text);
    int ok = 0;
    for (char *g = t; t && g > b; g--)
        if (!strncmp(g, "translate(", 10)) {
            ok = sscanf(g + 10, "%lf,%lf", x, y) == 2;
            break;
        }
    free(b);
    return ok;
}

/* Decade tick labels (10 with a raised exponent) in the SVG. */
static int svg_decades(const char *name)
{
    char *b = slurp_fig(name, ".svg");
    int n = 0;
    for (const char *p = b; (p = strstr(p, ">10</tspan><tspan")); p++)
        n++;
    free(b);
    return n;
}

static void embedded_scripts(void **st)
{
    (void)st;
    static const char *need[] = {"style.gp", "render.gp", "cost.gp", "ratio.gp",
                                 "counter.gp", "lines.gp", "kofn.gp", "table.gp",
                                 "prof.gp", "prof_fd.gp"};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++) {
        const mp_plot_script *s = mp_plot_find(need[i]);
        if (!s || s->len < 100 || strlen(s->text) != s->len)
            fail_msg("%s is not embedded in the binary", need[i]);
    }
    assert_null(mp_plot_find("nope.gp"));
}

/* Labels sit where no curve runs, bands do not hatch, titles are short and
 * a fit's legend gives the number the report's table gives. */
/* --no-plots means "do not draw": the figures drawn before stay. */
static void no_plots_keeps_figures(void **st)
{
    (void)st;
    mp_err err;
    mp_err_clear(&err);
    if (mp_report_build(dir, 0, &err) != 0)
        fail_msg("mp_report_build without figures: %s", err.msg);
    static const char *const ext[] = {"png", "svg", "pdf"};
    for (size_t i = 0; i < 3; i++) {
        char p[600];
        struct stat sb;
        snprintf(p, sizeof p, "%s/figures/cost_ready_pipe.%s", dir, ext[i]);
        if (stat(p, &sb) != 0 || sb.st_size == 0)
            fail_msg("%s was removed by a report without figures", p);
    }
}

static void figure_layout(void **st)
{
    (void)st;
    static const char *marked[] = {"cost.gp", "ratio.gp"};
    for (size_t i = 0; i < 2; i++) {
        const char *t = mp_plot_find(marked[i])->text;
        const char *l = strstr(t, "set label 5 \"select: FD\\\\_SETSIZE\" at fdset_n, graph ");
        if (!l)
            fail_msg("%s: no FD_SETSIZE label", marked[i]);
        double y = atof(l + strlen("set label 5 \"select: FD\\\\_SETSIZE\" at fdset_n, graph "));
        if (y < 0.9)   /* epoll runs along the bottom of these plots */
            fail_msg("%s: the FD_SETSIZE label is at graph %.2f, where the curves run",
                     marked[i], y);
    }
    assert_null(strstr(mp_plot_find("cost.gp")->text, "fs transparent pattern"));
    char md[600];
    snprintf(md, sizeof md, "%s/figures/cost_ready_pipe.gp", dir);
    char *w = mp_test_slurp(md);
    assert_non_null(w);
    assert_non_null(strstr(w, "ttl = \"ready mode, pipe fds: time per call\"\n"));
    free(w);
    snprintf(md, sizeof md, "%s/figures/lines_ready_pipe_L1-dcache-load-misses.gp", dir);
    w = mp_test_slurp(md);
    assert_non_null(w);
    assert_non_null(strstr(w, "fit_label = \"fit: 1/line\"\n"));
    free(w);
    snprintf(md, sizeof md, "%s/report.md", dir);
    w = mp_test_slurp(md);
    assert_non_null(strstr(w, "| ready | pipe | L1-dcache-load-misses | poll | 1 | "));
    free(w);
}

static void figures_drawn(void **st)
{
    (void)st;
    snprintf(dir, sizeof dir, "/tmp/mp_test_fig.XXXXXX");
    assert_non_null(mkdtemp(dir));
    char cmd[700];
    snprintf(cmd, sizeof cmd, "cp '%s/report/synthetic/results.json' '%s/'", MP_TEST_FIXTURES,
             dir);
    assert_int_equal(system(cmd), 0);
    mp_err err;
    mp_err_clear(&err);
    int rc = mp_report_build(dir, 1, &err);
    if (rc)
        fail_msg("mp_report_build: %d: %s", rc, err.msg);
    static const char *figs[] = {
        "cost_ready_pipe", "cost_wakeup_pipe", "ratio_ready_pipe", "ratio_wakeup_pipe",
        "counter_ready_pipe_L1-dcache-load-misses", "counter_wakeup_pipe_LLC-load-misses",
        "lines_ready_pipe_L1-dcache-load-misses", "lines_wakeup_pipe_LLC-load-misses",
        "kofn_pipe_N10", "kofn_pipe_N100", "kofn_pipe_N10000", "register_per_fd_pipe",
        "herd_per_event", "ltet_time", "ltet_syscalls"};
    for (size_t i = 0; i < sizeof figs / sizeof figs[0]; i++)
        all_formats(figs[i]);
    /* each kind draws its data: series present, log axes with labelled
     * decades on both axes where N spans decades */
    static const char *const be[] = {"select", "poll", "epoll"};
    static const char *const ratios[] = {"select / epoll", "poll / epoll", "parity with epoll"};
    svg_series("cost_ready_pipe", be, 3);
    svg_series("cost_wakeup_pipe", be, 3);
    svg_series("counter_ready_pipe_L1-dcache-load-misses", be, 3);
    svg_series("lines_ready_pipe_L1-dcache-load-misses", be, 3);
    svg_series("ratio_ready_pipe", ratios, 3);
    svg_series("kofn_pipe_N100", be, 3);
    /* the experiments' figures, drawn from their tables: lines per series,
     * and bars per row where x is a column of names */
    static const char *const reg_be[] = {"select", "poll", "epoll", "io_uring"};
    static const char *const trig[] = {"level", "edge"};
    static const char *const herd_y[] = {"woken_per_event.mean", "returned_per_event.mean",
                                         "wasted_per_event.mean"};
    svg_series("register_per_fd_pipe", reg_be, 4);
    svg_series("ltet_time", trig, 2);
    svg_series("herd_per_event", herd_y, 3);
    assert_true(svg_has("herd_per_event", "shared-set-oneshot"));
    /* parity is the reference line, not an "epoll / epoll" series */
    assert_false(svg_has("ratio_ready_pipe", "<title>epoll / epoll</title>"));
    assert_false(svg_has("ratio_ready_pipe", "epoll (parity)"));
    /* select's FD_SETSIZE end marked on the cost and ratio figures */
    assert_true(svg_has("cost_ready_pipe", "FD_SETSIZE"));
    assert_true(svg_has("ratio_wakeup_pipe", "FD_SETSIZE"));
    /* the K-of-N crossing marked (epoll reaches poll between K = 4 and 16) */
    assert_true(svg_has("kofn_pipe_N100", "epoll = poll"));
    /* the title names mode and fd kind; the host is named once, in the caption */
    assert_true(svg_has("cost_ready_pipe", "ready mode, pipe fds: time per call"));
    assert_false(svg_has("cost_ready_pipe", "Synthetic CPU"));
    static const char *const loglog[] = {"cost_ready_pipe", "cost_wakeup_pipe",
                                         "ratio_ready_pipe", "lines_ready_pipe_L1-dcache-load-misses"};
    for (size_t i = 0; i < sizeof loglog / sizeof loglog[0]; i++)
        if (svg_decades(loglog[i]) < 4)
            fail_msg("%s.svg labels %d decade ticks: expected at least 2 on each log axis",
                     loglog[i], svg_decades(loglog[i]));
    /* the cost figure's data carry the interval drawn as error bars */
    char *dat = slurp_fig("data_ready_pipe_poll", ".dat");
    assert_non_null(strstr(dat, "nfds p10 p50 p90 p99 ratio_epoll pollfd_lines maxfd ci_lo "
                                "ci_hi ci_kind"));
    free(dat);
    char *gp = slurp_fig("cost_ready_pipe", ".gp");
    assert_non_null(strstr(gp, "fdset_n = 1021"));
    /* no repeat medians in the fixture: no interval, and the axis names none */
    assert_non_null(strstr(gp, "ci_text = \"\"\n"));
    free(gp);
    assert_true(svg_has("cost_ready_pipe", "time per call (ns): median, p10..p90"));
    /* the legend under the plot, below the x label: the plot keeps the
     * figure's width (960 px) rather than giving a legend column a fifth */
    double kx, ky, lx, ly;
    assert_true(svg_text_at("cost_ready_pipe", "<text>select</text>", &kx, &ky));
    assert_true(svg_text_at("cost_ready_pipe", ">watched descriptors N<", &lx, &ly));
    if (!(ky > ly + 12 && kx < 0.75 * 960))
        fail_msg("cost_ready_pipe.svg: legend entry at (%g, %g), x label at (%g, %g): the "
                 "legend is not under the plot", kx, ky, lx, ly);
    assert_false(svg_has("cost_ready_pipe", "% CI"));
    char p[600];
    snprintf(p, sizeof p, "%s/report.md", dir);
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    char line[1024], section[1024] = "";
    int embedded = 0, kofn = 0, herd = 0, ltet = 0, reg = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "## ", 3))
            snprintf(section, sizeof section, "%s", line);
        if (strncmp(line, "![", 2))
            continue;
        embedded += !!strstr(line, "(figures/cost_ready_pipe.png)");
        /* the K and experiment figures sit in their own sections */
        kofn += strstr(line, "(figures/kofn_pipe_N") && strstr(section, "## K of N ready");
        reg += strstr(line, "(figures/register_per_fd_pipe.png)") && strstr(section, "(register)");
        herd += strstr(line, "(figures/herd_per_event.png)") && strstr(section, "(herd)");
        ltet += (strstr(line, "(figures/ltet_time.png)") || strstr(line, "(figures/ltet_syscalls.png)"))
                && strstr(section, "(ltet)");
    }
    fclose(f);
    assert_int_equal(embedded, 1);
    assert_int_equal(kofn, 6);
    assert_int_equal(reg, 1);
    assert_int_equal(herd, 1);
    assert_int_equal(ltet, 2);
    /* an author redraws one figure from the figures directory alone */
    snprintf(p, sizeof p, "%s/figures/cost_ready_pipe.png", dir);
    assert_int_equal(unlink(p), 0);
    snprintf(cmd, sizeof cmd, "cd '%s/figures' && gnuplot cost_ready_pipe.gp", dir);
    assert_int_equal(system(cmd), 0);
    check_file("cost_ready_pipe", "png", "\x89PNG", 0);
}

/* `--experiment herd` alone: its figure is drawn, and nothing else fails. */
static void experiments_only_drawn(void **st)
{
    (void)st;
    char d[64] = "/tmp/mp_test_fig.XXXXXX", cmd[700];
    assert_non_null(mkdtemp(d));
    snprintf(cmd, sizeof cmd, "cp '%s/report/experiments_only/results.json' '%s/'",
             MP_TEST_FIXTURES, d);
    assert_int_equal(system(cmd), 0);
    mp_err err;
    mp_err_clear(&err);
    int rc = mp_report_build(d, 1, &err);
    if (rc)
        fail_msg("mp_report_build: %d: %s", rc, err.msg);
    char save[64];
    memcpy(save, dir, sizeof save);
    memcpy(dir, d, sizeof dir);
    all_formats("herd_per_event");
    memcpy(dir, save, sizeof dir);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", d);
    assert_int_equal(system(cmd), 0);
}

/* The profile figures of a real --profile run: stacked phase bars per
 * mode and ns per fd per phase per backend, in the profile section. */
static void profile_drawn(void **st)
{
    (void)st;
    char d[64] = "/tmp/mp_test_fig.XXXXXX", cmd[700];
    assert_non_null(mkdtemp(d));
    snprintf(cmd, sizeof cmd, "cp '%s/report/profile/results.json' '%s/'", MP_TEST_FIXTURES,
             d);
    assert_int_equal(system(cmd), 0);
    mp_err err;
    mp_err_clear(&err);
    int rc = mp_report_build(d, 1, &err);
    if (rc)
        fail_msg("mp_report_build: %d: %s", rc, err.msg);
    char save[64];
    memcpy(save, dir, sizeof save);
    memcpy(dir, d, sizeof dir);
    /* per-descriptor phases only for backends whose cost grows with N:
     * not epoll (flat in the fixture) */
    static const char *figs[] = {"prof_ready_eventfd", "prof_wakeup_eventfd",
                                 "prof_fd_ready_eventfd_select", "prof_fd_ready_eventfd_poll",
                                 "prof_fd_wakeup_eventfd_poll"};
    for (size_t i = 0; i < sizeof figs / sizeof figs[0]; i++)
        all_formats(figs[i]);
    /* 3 repeat medians: the interval is their range, which covers the median
     * 1 - 2^(1-3) = 75% of the time; the axis says that level, not 95% */
    char *gp = slurp_fig("cost_ready_eventfd", ".gp");
    assert_non_null(strstr(gp, "ci_text = \"75.0% CI\"\n"));
    free(gp);
    assert_true(svg_has("cost_ready_eventfd", "time per call (ns): median, 75.0% CI, p10..p90"));
    assert_false(svg_has("cost_ready_eventfd", "95%"));
    memcpy(dir, save, sizeof dir);
    char p[600], line[1024], section[1024] = "";
    snprintf(p, sizeof p, "%s/report.md", d);
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    int bars = 0, perfd = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "## ", 3))
            snprintf(section, sizeof section, "%s", line);
        if (strncmp(line, "![", 2) || !strstr(section, "Where the time goes in the kernel"))
            continue;
        bars += strstr(line, "(figures/prof_ready_eventfd.png)") ||
                strstr(line, "(figures/prof_wakeup_eventfd.png)");
        perfd += !!strstr(line, "(figures/prof_fd_");
    }
    fclose(f);
    assert_int_equal(bars, 2);
    assert_int_equal(perfd, 4);   /* the three above and wakeup select; not epoll */
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", d);
    assert_int_equal(system(cmd), 0);
}

static void failing_script_reported(void **st)
{
    (void)st;
    char p[600];
    snprintf(p, sizeof p, "%s/figures/broken.gp", dir);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs("plot 'no-such-file.dat' using 1:2\n", f);
    fclose(f);
    mp_err err;
    mp_err_clear(&err);
    char fd[600];
    snprintf(fd, sizeof fd, "%s/figures", dir);
    mp_dir d;
    assert_int_equal(mp_dir_open(&d, fd, 1, &err), 0);
    int rc = mp_plot_run(&d, "broken.gp", &err);
    mp_dir_close(&d);
    assert_int_not_equal(rc, 0);
    if (!strstr(err.msg, "broken.gp") || !strstr(err.msg, "failed"))
        fail_msg("unhelpful message: %s", err.msg);
    snprintf(p, sizeof p, "rm -rf '%s'", dir);
    assert_int_equal(system(p), 0);
}

int main(void)
{
    if (!mp_plot_gnuplot_found(NULL, 0)) {
        fprintf(stderr, "SKIP: gnuplot is not installed (apt-get install gnuplot-nox)\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(embedded_scripts),
        cmocka_unit_test(figures_drawn),
        cmocka_unit_test(figure_layout),
        cmocka_unit_test(no_plots_keeps_figures),
        cmocka_unit_test(experiments_only_drawn),
        cmocka_unit_test(profile_drawn),
        cmocka_unit_test(failing_script_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
