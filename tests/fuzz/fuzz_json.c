/* SPDX-License-Identifier: MIT */
/* fuzz_json.c - libFuzzer target: the results.json reader of `muxprof report`
 * (and later `compare`), fed one input per call.
 *
 * One execution = the report verb's whole path short of gnuplot: the input
 * is written to a memfd, mp_rm_load() reads it through /proc/self/fd/N (the
 * loader only takes a path), and a model that loads is then pushed through
 * the analysis (series, ratios, fits), the figure data writer and the
 * report.md writer into a private temporary directory.  Rejection is fine;
 * a crash, a sanitizer report or a leak is a finding, and so is a string
 * of the input that is not data in a gnuplot wrapper or report.md
 * (oracle_quote.h).
 *
 * Built by tests/hardening.cmake: with clang and MUXPROF_FUZZ=ON as a libFuzzer
 * binary (fuzz_json), and always as a plain replay program (test_fuzz_json_replay,
 * see replay_main.c) that runs the seed corpus and tests/fuzz/regress/json/.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "report/series.h"
#include "report/fig.h"
#include "report/md.h"
#include "report/model.h"
#include "report/report.h"
#include "oracle_quote.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int memfd = -1;
static char dir[64];

static void cleanup(void)
{
    char cmd[128];
    if (dir[0]) {
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "fuzz_json: could not remove %s\n", dir);
    }
}

static int init_once(void)
{
    if (memfd >= 0)
        return 0;
    memfd = memfd_create("results.json", MFD_CLOEXEC);
    if (memfd < 0) {
        perror("fuzz_json: memfd_create");
        return -1;
    }
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    snprintf(dir, sizeof dir, "%s/mp-fuzz-json-XXXXXX", base);
    if (!mkdtemp(dir)) {
        perror("fuzz_json: mkdtemp");
        dir[0] = 0;
        return -1;
    }
    atexit(cleanup);
    return 0;
}

/* What report.md and the figures ask of a model, over every series. */
static void exercise(const mp_rmodel *m)
{
    char buf[256];
    static const char *paths[] = {"context.host", "context.arch", "status", "started_utc",
                                  "config.samples", "topology.line_bytes", "counters.preset",
                                  "context.rlimit_nofile.soft", "", ".", "a..b", NULL};
    for (const char *const *p = paths; *p; p++)
        mp_rm_text(m, *p, buf, sizeof buf);
    for (size_t i = 0; i < m->nmodes; i++)
        for (size_t k = 0; k < m->nkinds; k++)
            for (size_t b = 0; b < m->nbackends; b++) {
                const mp_rcell *cells[MP_RC_MAXPTS];
                size_t n = mp_rm_series(m, m->modes[i], m->kinds[k], m->backends[b], cells,
                                        MP_RC_MAXPTS);
                for (size_t c = 0; c < n && c < MP_RC_MAXPTS; c++) {
                    mp_rm_p50(cells[c], "wall_ns");
                    mp_rc_maxfd(cells[c]);
                    mp_rc_ratio(m, m->modes[i], m->kinds[k], m->backends[b], cells[c]->nfds);
                    mp_rm_find(m, m->modes[i], m->kinds[k], m->backends[b], cells[c]->nfds);
                }
                mp_rcost cost;
                mp_rc_cost(m, m->modes[i], m->kinds[k], m->backends[b], "wall_ns", &cost);
                mp_rlinefit lf;
                for (size_t x = 0; x < m->nmetrics; x++)
                    mp_rc_linefit(m, m->modes[i], m->kinds[k], m->backends[b], m->metrics[x],
                                  &lf);
            }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (init_once() < 0)
        abort();
    if (ftruncate(memfd, 0) < 0 || (size && pwrite(memfd, data, size, 0) != (ssize_t)size))
        abort();
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", memfd);

    mp_rmodel m;
    mp_err err;
    mp_err_clear(&err);
    int rc = mp_rm_load(&m, path, &err);
    if (rc == 0) {
        exercise(&m);
        mp_rfigs figs;
        mp_err ferr;
        mp_err_clear(&ferr);
        mp_dir d, figdir = {.fd = -1};
        if (mp_dir_open(&d, dir, 0, &ferr) != 0) {
            fprintf(stderr, "fuzz_json: %s\n", ferr.msg);
            abort();
        }
        if (mp_report_figures(&m, &d, &figdir, 0, &figs, &ferr) == 0 &&
            mp_report_markdown(&m, &d, &figs, &ferr) == 0) {
            char md[128];
            snprintf(md, sizeof md, "%s/report.md", dir);
            oracle_wrappers(figdir.path);
            oracle_markdown(md);
        }
        mp_dir_close(&figdir);
        mp_dir_close(&d);
        mp_rfigs_free(&figs);   /* also after a failed prepare, as build.c does */
    } else if (!err.msg[0]) {
        fprintf(stderr, "fuzz_json: mp_rm_load failed (%d) without a message\n", rc);
        abort();
    }
    mp_rm_free(&m);
    return 0;
}
