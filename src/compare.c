/* compare.c - inputs of `muxprof compare`: resolving an argument to a
 * results.json or an embedded reference, host labels, and which cells the
 * inputs share.  See compare.h; the writer is compare_md.c. */
#include "compare.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "compare_ref.h"

static void text_of(const mp_rmodel *m, const char *dotted, char *dst, size_t len,
                    const char *dflt)
{
    char buf[512];
    const char *s = mp_rm_text(m, dotted, buf, sizeof buf);
    snprintf(dst, len, "%s", s && *s ? s : dflt);
}

/* "cycles", "cpu-cycles", "CPU_CYCLES", "arm_n1::CPU_CYCLES", "cycles:u" ... */
static int is_cycles(const char *name)
{
    const char *p = strstr(name, "::");
    p = p ? p + 2 : name;
    size_t n = strcspn(p, ":");
    static const char *names[] = {"cycles", "cpu-cycles", "cpu_cycles",
                                  "cpu_clk_unhalted", "cpu_clk_unhalted.thread"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == n && !strncasecmp(p, names[i], n))
            return 1;
    return 0;
}

static int resolve(mp_cmp_host *h, const char *arg, mp_err *err)
{
    struct stat st;
    char path[PATH_MAX + 16];
    if (stat(arg, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            snprintf(path, sizeof path, "%s/results.json", arg);
            if (stat(path, &st) != 0)
                return mp_errf(err, -ENOENT, "%s: no results.json in this directory "
                               "(is it a muxprof run directory?)", arg);
        } else {
            snprintf(path, sizeof path, "%s", arg);
        }
        return mp_rm_load(&h->m, path, err);
    }
    const mp_cmp_ref *r = mp_cmp_ref_find(arg);
    if (r)
        return mp_cmp_ref_load(&h->m, r, err);
    return mp_errf(err, -ENOENT, "%s: no such run directory, results.json or reference "
                   "dataset (`muxprof compare --list-references` lists the references)",
                   arg);
}

int mp_cmp_host_open(mp_cmp_host *h, const char *arg, mp_err *err)
{
    memset(h, 0, sizeof *h);
    snprintf(h->arg, sizeof h->arg, "%s", arg);
    int rc = resolve(h, arg, err);
    if (rc)
        return rc;
    if ((rc = mp_cmp_ref_check(&h->m, &h->reference, err)))
        return rc;
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(h->m.root, "source");
    if (cJSON_IsString(src))
        snprintf(h->source, sizeof h->source, "%s", src->valuestring);
    const cJSON *ctx = cJSON_GetObjectItemCaseSensitive(h->m.root, "context");
    const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(ctx, "cpu_model");
    if (cpu && !cJSON_IsString(cpu))
        return mp_errf(err, -EBADMSG, "%s: field context.cpu_model: expected a string "
                       "naming the CPU", h->m.path);
    const cJSON *emu = cJSON_GetObjectItemCaseSensitive(ctx, "emulated");
    if (emu && !cJSON_IsBool(emu) && !cJSON_IsNull(emu))
        return mp_errf(err, -EBADMSG, "%s: field context.emulated: expected true or "
                       "false", h->m.path);
    h->emulated = cJSON_IsTrue(emu);
    char model[128], arch[32];
    text_of(&h->m, "context.cpu_model", model, sizeof model, "unknown CPU");
    snprintf(arch, sizeof arch, "%s", h->m.arch);
    /* the label goes into Markdown tables and gnuplot strings */
    for (char *p = model; *p; p++)
        if (*p == '"' || *p == '\\' || *p == '|' || *p == '`' || (unsigned char)*p < ' ')
            *p = ' ';
    snprintf(h->label, sizeof h->label, "%s (%s)%s", model, arch,
             h->emulated ? " [emulated]" : "");
    if (h->m.simulated)   /* counts of a cache model: named by it, never as a host */
        snprintf(h->label, sizeof h->label, "%s", h->m.sim_label);
    for (char *p = h->label; *p; p++)
        if (*p == '"' || *p == '\\' || *p == '|' || *p == '`' || (unsigned char)*p < ' ')
            *p = ' ';
    snprintf(h->scope, sizeof h->scope, "%s", h->m.counters_scope);
    h->user_only = h->scope[0] && !strstr(h->scope, "kernel") && strstr(h->scope, "user");
    for (size_t i = 0; i < h->m.nmetrics; i++) {
        h->has_counters = 1;
        if (!h->cycles[0] && is_cycles(h->m.metrics[i]))
            snprintf(h->cycles, sizeof h->cycles, "%s", h->m.metrics[i]);
    }
    return 0;
}

void mp_cmp_host_free(mp_cmp_host *h)
{
    mp_rm_free(&h->m);
}

static int has_kind(const mp_rmodel *m, const char *kind)
{
    for (size_t i = 0; i < m->nkinds; i++)
        if (!strcmp(m->kinds[i], kind))
            return 1;
    return 0;
}

const char *mp_cmp_kind(const mp_cmp_host *h, const char *kind)
{
    if (has_kind(&h->m, kind))
        return kind;
    if (has_kind(&h->m, "unknown"))
        return "unknown";
    return NULL;
}

const mp_rcell *mp_cmp_cell(const mp_cmp_host *h, const char *mode, const char *kind,
                            const char *backend, long long nfds)
{
    const char *k = mp_cmp_kind(h, kind);
    if (!k)
        return NULL;
    const mp_rcell *any = NULL;
    for (size_t i = 0; i < h->m.ncells; i++) {
        const mp_rcell *c = &h->m.cells[i];
        if (c->nfds != nfds || strcmp(c->mode, mode) || strcmp(c->fd_kind, k) ||
            strcmp(c->backend, backend))
            continue;
        if (c->status == MP_RC_OK)
            return c;
        if (!any)
            any = c;
    }
    return any;
}

size_t mp_cmp_nhave(const mp_cmp *c, const char *mode, const char *kind,
                    const char *backend, long long nfds)
{
    size_t k = 0;
    for (size_t i = 0; i < c->n; i++)
        k += mp_cmp_cell(&c->h[i], mode, kind, backend, nfds) != NULL;
    return k;
}

static void add_group(mp_cmp_group *out, size_t *n, size_t max, const char *mode,
                      const char *kind)
{
    for (size_t i = 0; i < *n && i < max; i++)
        if (!strcmp(out[i].mode, mode) && !strcmp(out[i].kind, kind))
            return;
    if (*n < max) {
        snprintf(out[*n].mode, sizeof out[*n].mode, "%s", mode);
        snprintf(out[*n].kind, sizeof out[*n].kind, "%s", kind);
    }
    (*n)++;
}

size_t mp_cmp_groups(const mp_cmp *c, mp_cmp_group *out, size_t max)
{
    size_t n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < c->n; i++) {
            const mp_rmodel *m = &c->h[i].m;
            for (size_t k = 0; k < m->ncells; k++) {
                const mp_rcell *x = &m->cells[k];
                int unknown = !strcmp(x->fd_kind, "unknown");
                if (pass == 0 && !unknown)
                    add_group(out, &n, max, x->mode, x->fd_kind);
                if (pass == 1 && unknown) {
                    int named = 0;   /* some host names a kind for this mode */
                    for (size_t g = 0; g < n && g < max; g++)
                        named |= !strcmp(out[g].mode, x->mode);
                    if (!named)
                        add_group(out, &n, max, x->mode, "unknown");
                }
            }
        }
    return n;
}

size_t mp_cmp_backends(const mp_cmp *c, const mp_cmp_group *g, char (*out)[32], size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n; i++) {
        const char *k = mp_cmp_kind(&c->h[i], g->kind);
        if (!k)
            continue;
        const mp_rmodel *m = &c->h[i].m;
        for (size_t j = 0; j < m->ncells; j++) {
            const mp_rcell *x = &m->cells[j];
            if (strcmp(x->mode, g->mode) || strcmp(x->fd_kind, k))
                continue;
            int dup = 0;
            for (size_t b = 0; b < n && b < max; b++)
                dup |= !strcmp(out[b], x->backend);
            if (!dup && n < max)
                snprintf(out[n++], 32, "%s", x->backend);
        }
    }
    return n;
}

size_t mp_cmp_shared_n(const mp_cmp *c, const mp_cmp_group *g, const char *backend,
                       long long *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n; i++) {
        const char *k = mp_cmp_kind(&c->h[i], g->kind);
        if (!k)
            continue;
        const mp_rmodel *m = &c->h[i].m;
        for (size_t j = 0; j < m->ncells; j++) {
            const mp_rcell *x = &m->cells[j];
            if (strcmp(x->mode, g->mode) || strcmp(x->fd_kind, k) ||
                strcmp(x->backend, backend))
                continue;
            if (mp_cmp_nhave(c, g->mode, g->kind, backend, x->nfds) < 2)
                continue;
            size_t p = 0;
            while (p < n && out[p] < x->nfds)
                p++;
            if (p < n && out[p] == x->nfds)
                continue;
            if (n >= max)
                continue;
            memmove(&out[p + 1], &out[p], (n - p) * sizeof *out);
            out[p] = x->nfds;
            n++;
        }
    }
    return n;
}

/* "wakeup/pipe: poll, epoll at N 10..10000" for the error message. */
static void describe(const mp_rmodel *m, char *buf, size_t len)
{
    size_t o = 0;
    buf[0] = 0;
    for (size_t i = 0; i < m->nmodes && o < len; i++)
        for (size_t k = 0; k < m->nkinds && o < len; k++) {
            long long lo = -1, hi = -1;
            char be[128] = "";
            for (size_t j = 0; j < m->ncells; j++) {
                const mp_rcell *x = &m->cells[j];
                if (strcmp(x->mode, m->modes[i]) || strcmp(x->fd_kind, m->kinds[k]))
                    continue;
                if (lo < 0 || x->nfds < lo) lo = x->nfds;
                if (x->nfds > hi) hi = x->nfds;
                char tok[40];
                snprintf(tok, sizeof tok, ",%s,", x->backend);
                char wrapped[132];
                snprintf(wrapped, sizeof wrapped, ",%s,", be);
                if (!strstr(wrapped, tok) && strlen(be) + strlen(x->backend) + 2 < sizeof be)
                    snprintf(be + strlen(be), sizeof be - strlen(be), "%s%s",
                             be[0] ? "," : "", x->backend);
            }
            if (lo < 0)
                continue;
            o += (size_t)snprintf(buf + o, len - o, "%s%s mode, %s fds: %s at N %lld..%lld",
                                  o ? "; " : "", m->modes[i], m->kinds[k], be, lo, hi);
        }
    if (!buf[0])
        snprintf(buf, len, "no cells");
}

int mp_cmp_prepare(mp_cmp *c, mp_err *err)
{
    /* same label twice: add the host name, then the position */
    for (size_t i = 0; i < c->n; i++)
        for (size_t j = i + 1; j < c->n; j++) {
            if (strcmp(c->h[i].label, c->h[j].label))
                continue;
            for (size_t k = i; k < c->n; k++) {
                if (k != i && strcmp(c->h[k].label, c->h[i].label))
                    continue;
                char host[64], tmp[sizeof c->h[k].label];
                text_of(&c->h[k].m, "context.host", host, sizeof host, "?");
                snprintf(tmp, sizeof tmp, "%.120s, %.40s #%zu", c->h[k].label, host, k + 1);
                snprintf(c->h[k].label, sizeof c->h[k].label, "%s", tmp);
            }
        }
    mp_cmp_group g[64];
    size_t ng = mp_cmp_groups(c, g, 64);
    for (size_t i = 0; i < ng && i < 64; i++) {
        char be[16][32];
        size_t nb = mp_cmp_backends(c, &g[i], be, 16);
        for (size_t b = 0; b < nb && b < 16; b++) {
            long long n1;
            if (mp_cmp_shared_n(c, &g[i], be[b], &n1, 1))
                return 0;
        }
    }
    char msg[MP_ERR_MAX], d[200];
    size_t o = (size_t)snprintf(msg, sizeof msg, "the inputs share no measured cell "
                                "(same mode, fd kind, backend and N), so there is nothing "
                                "to compare: field results:");
    for (size_t i = 0; i < c->n && o < sizeof msg; i++) {
        describe(&c->h[i].m, d, sizeof d);
        o += (size_t)snprintf(msg + o, sizeof msg - o, " %s has %s;", c->h[i].m.path, d);
    }
    return mp_errf(err, -EBADMSG, "%s", msg);
}
