/* SPDX-License-Identifier: MIT */
/* compare.c - inputs of `muxprof compare`: resolving an argument to a
 * results.json or an embedded reference, host labels, and which cells the
 * inputs share.  See compare.h; the writer is compare/writer.c. */
#include "compare/internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/duration.h"
#include "report/anonymize.h"
#include "report/reference.h"

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

/* A name of a built-in reference dataset (no '/') is that dataset, whatever
 * the current directory holds: a directory or file planted under that name
 * cannot stand in for published figures.  A local path of that name is
 * read when written as one ("./epyc-9354p"). */
static int resolve(mp_cmp_host *h, const char *arg, mp_anon *labels, mp_err *err)
{
    struct stat st;
    char path[PATH_MAX + 16];
    mp_echo e;
    const mp_cmp_ref *r = strchr(arg, '/') ? NULL : mp_cmp_ref_find(arg);
    if (r) {
        h->builtin = 1;
        h->shadowed = lstat(arg, &st) == 0;
        return mp_cmp_ref_load(&h->m, r, err);
    }
    if (stat(arg, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            snprintf(path, sizeof path, "%s/results.json", arg);
            if (stat(path, &st) != 0)
                return mp_errf(err, -ENOENT, "%s: no results.json in this directory "
                               "(is it a muxprof run directory?)", mp_echo_arg(&e, arg));
        } else {
            snprintf(path, sizeof path, "%s", arg);
        }
        return mp_rm_load_anonymized(&h->m, path, labels, err);
    }
    return mp_errf(err, -ENOENT, "%s: no such run directory, results.json or reference "
                   "dataset (`muxprof compare --list-references` lists the references)",
                   mp_echo_arg(&e, arg));
}

/* Labels go into Markdown tables and gnuplot strings. */
static int label_char(char ch)
{
    return ch != '"' && ch != '\\' && ch != '|' && ch != '`' && (unsigned char)ch >= ' '
           && ch != 0x7f;
}

int mp_cmp_host_open(mp_cmp_host *h, const char *arg, mp_err *err)
{
    return mp_cmp_host_open_anonymized(h, arg, 0, NULL, err);
}

int mp_cmp_host_open_anonymized(mp_cmp_host *h, const char *arg, size_t nth, mp_anon *labels,
                                mp_err *err)
{
    memset(h, 0, sizeof *h);
    snprintf(h->arg, sizeof h->arg, "%s", arg);
    int rc = resolve(h, arg, labels, err);
    if (rc)
        return rc;
    if ((rc = mp_cmp_ref_check(&h->m, &h->reference, err)))
        return rc;
    if (labels && !h->reference) {   /* named by its place among the inputs, not its path */
        snprintf(h->arg, sizeof h->arg, "input-%zu", nth);
        snprintf(h->m.shown, sizeof h->m.shown, "input-%zu/results.json", nth);
    }
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
    for (char *p = model; *p; p++)
        if (!label_char(*p))
            *p = ' ';
    snprintf(h->label, sizeof h->label, "%s (%s)%s", model, arch,
             h->emulated ? " [emulated]" : "");
    if (h->m.simulated) {   /* counts of a cache model: named by it and its guest's ISA,
                             * never as a host */
        snprintf(h->label, sizeof h->label, "%s, %s guest", h->m.sim_label,
                 mp_rm_guest_isa(&h->m));
        for (char *p = h->label; *p; p++)
            if (!label_char(*p))
                *p = ' ';
    }
    snprintf(h->machine, sizeof h->machine, "%s", h->label);
    snprintf(h->scope, sizeof h->scope, "%s", h->m.counters_scope);
    h->user_only = h->scope[0] && !strstr(h->scope, "kernel") && strstr(h->scope, "user");
    for (size_t i = 0; i < h->m.nmetrics; i++) {
        h->has_counters = 1;
        if (!h->cycles[0] && is_cycles(h->m.metrics[i]))
            snprintf(h->cycles, sizeof h->cycles, "%s", h->m.metrics[i]);
    }
    return 0;
}

int mp_cmp_host_label(mp_cmp_host *h, const char *name, mp_err *err)
{
    size_t n = strlen(name);
    if (!n || n > MP_CMP_LABEL_MAX)
        return mp_errf(err, -EINVAL, "--label '%.*s': a label has 1 to %d characters",
                       MP_CMP_LABEL_MAX, name, MP_CMP_LABEL_MAX);
    for (const char *p = name; *p; p++)
        if (!label_char(*p))
            return mp_errf(err, -EINVAL, "--label '%s': a label may not contain "
                           "\", \\, |, ` or control characters", name);
    snprintf(h->label, sizeof h->label, "%s", name);
    h->labelled = 1;
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
    if (!k || (h->wake_apart && !strcmp(mode, "wakeup")))
        return NULL;
    const mp_rcell *c = mp_rm_find(&h->m, mode, k, backend, nfds);   /* an ok one first */
    return c ? c : mp_rm_find_any(&h->m, mode, k, backend, nfds, 0);
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

/* The name of an input for a label: its run directory's name ("x/run/"
 * and "x/run/results.json" give "run"), or the reference's name. */
static void input_name(const mp_cmp_host *h, char *buf, size_t len)
{
    char a[PATH_MAX];
    snprintf(a, sizeof a, "%s", h->arg);
    size_t n = strlen(a);
    while (n > 1 && a[n - 1] == '/')
        a[--n] = 0;
    if (n > 13 && !strcmp(a + n - 13, "/results.json"))
        a[n -= 13] = 0;
    else if (!strcmp(a, "results.json"))
        snprintf(a, sizeof a, ".");
    if (!strcmp(a, ".") && getcwd(a, sizeof a) == NULL)
        snprintf(a, sizeof a, ".");
    const char *base = strrchr(a, '/');
    snprintf(buf, len, "%s", base && base[1] ? base + 1 : a);
    for (char *p = buf; *p; p++)
        if (!label_char(*p))
            *p = ' ';
}

/* The file an input was read from, for "given twice". */
static void input_id(const mp_cmp_host *h, char *buf, size_t len)
{
    char real[PATH_MAX];
    if (!h->reference && realpath(h->m.path, real))
        snprintf(buf, len, "%s", real);
    else
        snprintf(buf, len, "%s", h->m.path);
}

static int label_taken(const mp_cmp *c, size_t upto, const char *label)
{
    for (size_t i = 0; i < upto; i++)
        if (!strcmp(c->h[i].label, label))
            return 1;
    return 0;
}

int mp_cmp_prepare(mp_cmp *c, mp_err *err)
{
    /* the same file twice compares nothing with itself */
    for (size_t i = 0; i < c->n; i++)
        for (size_t j = i + 1; j < c->n; j++) {
            char a[PATH_MAX], b[PATH_MAX];
            input_id(&c->h[i], a, sizeof a);
            input_id(&c->h[j], b, sizeof b);
            if (!strcmp(a, b))
                return mp_errf(err, -EINVAL, "inputs %zu and %zu ('%s' and '%s') are the same "
                               "file, %s; give each input once", i + 1, j + 1, c->h[i].arg,
                               c->h[j].arg, a);
        }
    /* Labels: two --label alike is a mistake; a later input whose label an
     * earlier one already has (two runs of one host) gets its run
     * directory's name, then a number, and the first keeps its own. */
    for (size_t j = 1; j < c->n; j++) {
        if (!label_taken(c, j, c->h[j].label))
            continue;
        if (c->h[j].labelled)
            return mp_errf(err, -EINVAL, "--label '%s' names two inputs; give each its own",
                           c->h[j].label);
        char name[128], tmp[sizeof c->h[j].label];
        input_name(&c->h[j], name, sizeof name);
        snprintf(tmp, sizeof tmp, "%.120s, %.60s", c->h[j].label, name);
        for (int k = 2; label_taken(c, j, tmp) && k < 1000; k++)
            snprintf(tmp, sizeof tmp, "%.120s, %.50s #%d", c->h[j].label, name, k);
        snprintf(c->h[j].label, sizeof c->h[j].label, "%s", tmp);
    }
    /* Wakeup cells match only cells whose waiter slept as long before the
     * poke: the first input with wakeup cells sets the delay. */
    long long delay = -1;
    for (size_t i = 0; i < c->n; i++) {
        c->h[i].wake_apart = delay >= 0 && c->h[i].m.wake_delay_ns >= 0 &&
                             c->h[i].m.wake_delay_ns != delay;
        if (delay < 0)
            delay = c->h[i].m.wake_delay_ns;
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
    /* The wake delays first: when they differ they are the cause, and the
     * inputs' descriptions after them may be cut at MP_ERR_MAX. */
    char msg[MP_ERR_MAX], d[200];
    size_t o = (size_t)snprintf(msg, sizeof msg, "the inputs share no measured cell "
                                "(same mode, fd kind, backend and N), so there is nothing "
                                "to compare: field results:");
    size_t first = 0;   /* the input whose wakeup cells set the delay */
    while (first + 1 < c->n && c->h[first].m.wake_delay_ns < 0)
        first++;
    for (size_t i = 0; i < c->n && o < sizeof msg; i++) {
        if (!c->h[i].wake_apart)
            continue;
        char a[32], b[32];
        o += (size_t)snprintf(msg + o, sizeof msg - o, " the waiter slept %s before the poke "
                              "in %.120s's wakeup cells and %s in %.120s's: compare runs made "
                              "with the same --wake-delay;",
                              mp_duration_fmt(a, sizeof a, c->h[first].m.wake_delay_ns),
                              c->h[first].m.path,
                              mp_duration_fmt(b, sizeof b, c->h[i].m.wake_delay_ns),
                              c->h[i].m.path);
        break;
    }
    for (size_t i = 0; i < c->n && o < sizeof msg; i++) {
        describe(&c->h[i].m, d, sizeof d);
        o += (size_t)snprintf(msg + o, sizeof msg - o, " %s has %s;", c->h[i].m.path, d);
    }
    return mp_errf(err, -EBADMSG, "%s", msg);
}
