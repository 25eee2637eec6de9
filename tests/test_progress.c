/* SPDX-License-Identifier: MIT */
/* test_progress.c - the progress line's estimate of the time left, on a
 * sweep timed by a table instead of a clock: the default sweep's cells in
 * their order, each unit (a repeat or a counter pass) costing the samples
 * times a median per call measured on the development VM, each group of
 * cells preceded by the set-up of its N descriptors, and select refused
 * beyond FD_SETSIZE as the real sweep refuses it.  The estimate must stay
 * within a factor of 2 of the time the sweep then really takes once a
 * tenfold range of N has been measured, and the count of finished cells must only grow. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/clock.h"

#include "cmd/cmd.h"
#include "run/progress.h"

/* Median ns per call, ready and wakeup, of a default run on the 2-core VM
 * (pipes; select is refused from 2,000 on). */
static const struct {
    int n;
    double sel[2], pol[2], ep[2];
} medians[] = {
    {10, {862, 22222}, {651, 21050}, {461, 22172}},
    {20, {1290, 22600}, {1090, 21900}, {470, 21000}},
    {50, {2600, 24500}, {2420, 23800}, {520, 19500}},
    {100, {4809, 27466}, {4518, 27636}, {571, 18294}},
    {200, {9100, 38000}, {8400, 37500}, {560, 17500}},
    {500, {21900, 75000}, {20900, 73000}, {555, 17200}},
    {1000, {42870, 139239}, {41718, 135757}, {551, 16936}},
    {2000, {0, 0}, {65803, 229296}, {431, 14204}},
    {5000, {0, 0}, {219000, 610000}, {450, 17000}},
    {10000, {0, 0}, {448508, 1202552}, {461, 19843}},
};
#define NMED (sizeof medians / sizeof medians[0])

/* Per call besides the call itself: the sampler's bookkeeping in ready
 * mode, the poker's handshake in wakeup mode (ns). */
static const double harness_ns[2] = {300, 25000};
/* Creating, registering and passing one descriptor to the helper (ns). */
#define SETUP_NS_PER_FD 6000.0
/* Untimed warm-up calls before each block: at least this long (ns). */
#define WARMUP_NS 2e6

static double median_of(const mp_cell *c)
{
    for (size_t i = 0; i < NMED; i++)
        if (medians[i].n == c->nfds) {
            const char *b = c->backend->name;
            const double *v = !strcmp(b, "select") ? medians[i].sel
                              : !strcmp(b, "poll") ? medians[i].pol : medians[i].ep;
            return v[c->mode];
        }
    fail_msg("no median for N=%d", c->nfds);
    return 0;
}

/* One simulated event: a unit of a cell begins, or a cell is final. */
typedef struct ev {
    int done;
    size_t cell;
    uint64_t t;
} ev;

/* The default sweep's events with their times, as run/sweep.c orders them:
 * per group of cells (one N, one mode, the backends), its set-up, the
 * repeats with backends interleaved, the counter passes, then every cell
 * of the group final. */
static size_t simulate(const mp_results *r, int repeats, int passes, int samples, ev *out)
{
    size_t k = 0, i = 0;
    uint64_t t = 0;
    while (i < r->ncells) {
        size_t g = i;
        while (g < r->ncells && r->cells[g].nfds == r->cells[i].nfds &&
               r->cells[g].mode == r->cells[i].mode)
            g++;
        t += (uint64_t)(SETUP_NS_PER_FD * r->cells[i].nfds);
        for (int u = 0; u < repeats + passes; u++)
            for (size_t c = i; c < g; c++) {
                double m = median_of(&r->cells[c]);
                if (m == 0)
                    continue;   /* refused: no unit runs */
                out[k++] = (ev){0, c, t};
                t += (uint64_t)(WARMUP_NS + samples * (m + harness_ns[r->cells[c].mode]));
            }
        for (size_t c = i; c < g; c++)
            out[k++] = (ev){1, c, t};
        i = g;
    }
    out[k++] = (ev){1, (size_t)-1, t};   /* the end */
    return k;
}

/* The default sweep's configuration and its empty results. */
static void default_run(mp_run_config *cfg, mp_results *r)
{
    mp_err e;
    char *argv[] = {(char *)"run", NULL};
    assert_int_equal(mp_cli_parse_run(1, argv, cfg, &e), 0);
    assert_int_equal(mp_results_init(r, cfg, &e), 0);
}

static void estimate_within_2x_and_counter_forward(void **st)
{
    (void)st;
    mp_run_config cfg;
    mp_results r;
    default_run(&cfg, &r);
    const int passes = 1;
    ev *evs = calloc(r.ncells * (size_t)(cfg.repeats + passes + 1) + 1, sizeof *evs);
    size_t nev = simulate(&r, cfg.repeats, passes, cfg.samples, evs);
    uint64_t end = evs[nev - 1].t;

    mp_progress p;
    mp_progress_init(&p, 1, &r, (size_t)cfg.repeats + passes);
    const uint64_t t0 = p.start_ns;   /* simulated times count from here */
    size_t last_done = 0, checked = 0;
    double worst = 1;
    for (size_t i = 0; i + 1 < nev; i++) {
        if (evs[i].done) {
            mp_progress_cell_done_at(&p, evs[i].cell, t0 + evs[i].t);
            assert_true(p.cells_done >= last_done);
            last_done = p.cells_done;
            continue;
        }
        mp_progress_unit_at(&p, evs[i].cell, t0 + evs[i].t);
        double eta = mp_progress_eta_s(&p, t0 + evs[i].t);
        double truth = (double)(end - evs[i].t) / 1e9;
        /* once a tenfold range of N has been measured (10 to 100) */
        if (r.cells[evs[i].cell].nfds < 200 || truth < 0.05)
            continue;
        assert_true(eta >= 0);
        double ratio = eta / truth;
        if (ratio < 0.5 || ratio > 2)
            fail_msg("at %.2f s of %.2f s (cell %zu, N=%d): ETA %.2f s, %.2f s left in truth",
                     (double)evs[i].t / 1e9, (double)end / 1e9, evs[i].cell,
                     r.cells[evs[i].cell].nfds, eta, truth);
        double off = ratio > 1 ? ratio : 1 / ratio;
        if (off > worst)
            worst = off;
        checked++;
    }
    assert_int_equal(p.cells_done, r.ncells);
    assert_true(checked > 100);
    printf("progress: %zu estimates over a %.1f s sweep, worst off by %.2fx\n", checked,
           (double)end / 1e9, worst);
    mp_progress_free(&p);
    free(evs);
    mp_results_free(&r);
}

/* The sweep in pass order (every cell's repeat 1, then every cell's repeat 2,
 * ...): each unit says its pass and its place among the cells that have
 * units, and the plain output's line falls due every MP_PROGRESS_PLAIN_S. */
static void pass_and_cell_and_plain_lines(void **st)
{
    (void)st;
    mp_run_config cfg;
    mp_results r;
    default_run(&cfg, &r);
    mp_progress p;
    mp_progress_init(&p, 1, &r, (size_t)cfg.repeats);
    size_t measured = 0;
    for (size_t c = 0; c < r.ncells; c++)
        measured += median_of(&r.cells[c]) != 0;
    assert_true(measured > 0 && measured < r.ncells);   /* select refused beyond FD_SETSIZE */
    uint64_t t = p.start_ns;
    size_t lines = 0;
    for (int u = 0; u < cfg.repeats; u++) {
        size_t k = 0;
        for (size_t c = 0; c < r.ncells; c++) {
            if (median_of(&r.cells[c]) == 0)
                continue;
            t += 100000000;   /* 0.1 s a unit */
            mp_progress_unit_at(&p, c, t);
            size_t kk, n, pass = mp_progress_pass(&p, c, &kk, &n);
            k++;
            if (pass != (size_t)u + 1 || kk != k || n != measured)
                fail_msg("unit of cell %zu in pass %d: says pass %zu, cell %zu/%zu; want "
                         "pass %d, cell %zu/%zu", c, u + 1, pass, kk, n, u + 1, k, measured);
            lines += mp_progress_line_due(&p, t);
        }
    }
    double span = (double)(t - p.start_ns) / 1e9;
    size_t want = (size_t)(span / MP_PROGRESS_PLAIN_S);
    if (lines + 1 < want || lines > want)
        fail_msg("%zu plain lines over %.1f s, want one every %d s", lines, span,
                 MP_PROGRESS_PLAIN_S);
    mp_progress_free(&p);
    mp_results_free(&r);
}

/* A long unit (30 s, no unit boundary) on a simulated clock, the ticker
 * woken when it asks and, every other time, 0.2 s late: off a terminal no
 * gap between lines exceeds MP_PROGRESS_PLAIN_S; on one, every second
 * of the run gets its redraw (within the 0.2 s it is late). */
static void ticker_keeps_the_gap_in_a_long_unit(void **st)
{
    (void)st;
    mp_run_config cfg;
    mp_results r;
    default_run(&cfg, &r);
    int sink = open("/dev/null", O_WRONLY);
    assert_true(sink >= 0);
    for (int tty = 0; tty <= 1; tty++) {
        mp_progress p;
        mp_progress_init_fd(&p, 0, &r, (size_t)cfg.repeats, sink);
        mp_progress_cb(0, r.ncells, "a long unit", &p);
        mp_progress_tickst ts = {0};
        uint64_t t = mp_now_ns(), end = t + 30000000000u, last = t;
        size_t lines = 0;
        for (int k = 0; t < end; k++) {
            uint64_t before = atomic_load(&p.shm->ticker_lines);
            uint64_t due = mp_progress_tick(p.shm, sink, tty, t, &ts);
            assert_true(due > t);
            if (atomic_load(&p.shm->ticker_lines) > before) {
                double gap = (double)(t - last) / 1e9;
                if (gap > (tty ? 1.2 : MP_PROGRESS_PLAIN_S) + 1e-9 && lines)
                    fail_msg("%s: %.2f s between lines", tty ? "terminal" : "plain", gap);
                last = t;
                lines++;
            }
            t = due + (k % 2 ? 200000000u : 0);
        }
        if (lines < (tty ? 25u : 6u))
            fail_msg("%s: %zu lines in a 30 s unit", tty ? "terminal" : "plain", lines);
        mp_progress_free(&p);
    }
    close(sink);
    mp_results_free(&r);
}

/* Bytes readable from fd within ms, appended to buf. */
static size_t drain(int fd, char *buf, size_t have, size_t cap, int ms)
{
    struct pollfd pfd = {.fd = fd, .events = POLLIN};
    while (have + 1 < cap && poll(&pfd, 1, ms) > 0) {
        ssize_t n = read(fd, buf + have, cap - 1 - have);
        if (n <= 0)
            break;
        have += (size_t)n;
        ms = 0;
    }
    buf[have] = 0;
    return have;
}

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *q = s; (q = strstr(q, what)); q += strlen(what))
        n++;
    return n;
}

/* The ticker process itself, on a terminal (a pty, found by isatty as
 * stderr would be): with one unit begun and none after, the line is
 * redrawn at least twice (once a second; 10 s allowed for a loaded
 * host), and it stops at once when asked. */
static void ticker_redraws_a_terminal(void **st)
{
    (void)st;
    mp_run_config cfg;
    mp_results r;
    default_run(&cfg, &r);
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) || unlockpt(master)) {
        printf("no pty here: skipped\n");
        skip();
    }
    int slave = open(ptsname(master), O_WRONLY | O_NOCTTY);
    assert_true(slave >= 0);
    mp_progress p;
    mp_progress_init_fd(&p, 0, &r, (size_t)cfg.repeats, slave);
    assert_true(p.tty);
    mp_err e;
    assert_int_equal(mp_progress_ticker_start(&p, NULL, &e), 0);
    mp_progress_cb(0, r.ncells, "a long unit", &p);
    static char out[1 << 16];
    size_t have = 0;
    uint64_t t0 = mp_now_ns();
    while (count(out, "a long unit") < 3 && mp_now_ns() - t0 < 10000000000u)
        have = drain(master, out, have, sizeof out, 100);
    size_t draws = count(out, "\r\033[K");
    uint64_t s0 = mp_now_ns();
    mp_progress_ticker_stop(&p);
    double stop_s = (double)(mp_now_ns() - s0) / 1e9;
    printf("ticker: %zu redraws of a long unit in %.1f s, stopped in %.3f s, %llu wakes\n",
           draws, (double)(s0 - t0) / 1e9, stop_s,
           (unsigned long long)atomic_load(&p.shm->ticker_wakes));
    /* the first draw is the unit's own: two more are the ticker's seconds */
    if (count(out, "a long unit") < 3)
        fail_msg("the terminal line was drawn %zu times in 10 s of one unit: %s",
                 count(out, "a long unit"), out);
    assert_true(stop_s < 1.5);
    assert_int_equal(p.ticker_pid, 0);
    mp_progress_free(&p);
    close(slave);
    close(master);
    mp_results_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(estimate_within_2x_and_counter_forward),
        cmocka_unit_test(pass_and_cell_and_plain_lines),
        cmocka_unit_test(ticker_keeps_the_gap_in_a_long_unit),
        cmocka_unit_test(ticker_redraws_a_terminal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
