/* out_table.c - the tables `muxprof run` prints: per fd kind and mode, one
 * row per N, p50 wall ns per backend, then poll/epoll. */
#include <stdio.h>
#include <string.h>

#include "results.h"

static const mp_cell *find(const mp_results *r, mp_fd_kind k, mp_mode m, int n, const char *b)
{
    for (size_t i = 0; i < r->ncells; i++) {
        const mp_cell *c = &r->cells[i];
        if (c->kind == k && c->mode == m && c->nfds == n && !strcmp(c->backend->name, b))
            return c;
    }
    return NULL;
}

static double p50(const mp_cell *c)
{
    const mp_metric *m = c && c->status == MP_CELL_OK ? mp_cell_metric(c, "wall_ns") : NULL;
    return m ? m->s.p50 : -1;
}

void mp_print_tables(const mp_results *r, FILE *f)
{
    const mp_run_config *cfg = r->cfg;
    for (int k = 0; k < cfg->nkinds; k++)
        for (int m = 0; m < cfg->nmodes; m++) {
            mp_mode mode = cfg->modes[m];
            fprintf(f, "\n%s mode, %s, p50 ns per call (%s)\n", mp_mode_name(mode),
                    mp_fd_kind_name(cfg->kinds[k]),
                    mode == MP_MODE_READY ? "timeout 0, one fd readable"
                                          : "poker write -> waiter return");
            fprintf(f, "%8s", "N");
            for (int b = 0; b < cfg->nbackends; b++)
                fprintf(f, " %12s", cfg->backends[b]->name);
            fprintf(f, " %11s\n", "poll/epoll");
            for (int n = 0; n < cfg->ncounts; n++) {
                fprintf(f, "%8d", cfg->fds[n]);
                for (int b = 0; b < cfg->nbackends; b++) {
                    const mp_cell *c = find(r, cfg->kinds[k], mode, cfg->fds[n],
                                            cfg->backends[b]->name);
                    double v = p50(c);
                    if (v >= 0)
                        fprintf(f, " %12.0f", v);
                    else
                        fprintf(f, " %12s", c ? (c->status == MP_CELL_UNSUPPORTED ? "unsupported"
                                                 : c->status == MP_CELL_ERROR ? "error" : "-")
                                              : "-");
                }
                double pp = p50(find(r, cfg->kinds[k], mode, cfg->fds[n], "poll"));
                double pe = p50(find(r, cfg->kinds[k], mode, cfg->fds[n], "epoll"));
                if (pp > 0 && pe > 0)
                    fprintf(f, " %11.2f\n", pp / pe);
                else
                    fprintf(f, " %11s\n", "-");
            }
        }
}
