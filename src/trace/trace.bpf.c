// SPDX-License-Identifier: MIT OR GPL-2.0-only
/* trace.bpf.c - the kernel half of `muxprof trace`: on the raw syscall
 * tracepoints (sys_enter, sys_exit), every select, pselect6, poll, ppoll,
 * epoll_wait, epoll_pwait and epoll_pwait2 of one thread group (the target:
 * all its threads, those started later too; with follow, also every process
 * it or a followed one forks from the attach on, `followed`, each taken out
 * when it exits) becomes one record in the ring
 * buffer `records` (trace/record.h): entry and exit times, thread, CPUs,
 * N, the return value, the timeout's class and, for each counter user space
 * put in `counters` (one per-CPU perf event per counter, index
 * event * ncpus + cpu), its count over the call.
 *
 * N, the descriptors the call watched:
 *   poll, ppoll        nfds (every entry, negative fds included: the kernel
 *                      walks them all);
 *   select, pselect6   the descriptors set in any of the three sets, read
 *                      from the target's memory at entry (nfds up to
 *                      select_bits; above it N is not known, -1);
 *   epoll_*            the descriptors registered in the instance: a count
 *                      per struct file of the instance (a forked child
 *                      shares its parent's instances: the same file), followed
 *                      through epoll_ctl ADD/DEL that succeed and set to 0
 *                      by epoll_create/epoll_create1; an instance that
 *                      existed before the attach starts from its count in
 *                      /proc/PID/fdinfo, which user space puts in `seeds`
 *                      by (tgid, fd) and the first call that names it moves
 *                      to its file.  A dup'ed descriptor names the same file,
 *                      so it shares the count.
 * User space is woken only when the ring buffer is half full (it also reads
 * it every 100 ms).  A record that finds it full is counted in stats (LOST), as
 * is a call whose entry found no room in `inflight` (NOSLOT).  Only x86_64:
 * the syscall arguments are read from its struct pt_regs.
 *
 * Licence: the helpers used need a GPL-compatible program. */
#include <linux/bpf.h>
#include <linux/types.h>
#include <asm/unistd.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "trace/record.h"

char LICENSE[] SEC("license") = "Dual MIT/GPL";

#ifndef __x86_64__
#ifndef __TARGET_ARCH_x86
#error "trace.bpf.c reads x86_64 syscall arguments"
#endif
#endif

/* The kernel's structures, only the members read; CO-RE (libbpf and the
 * kernel's BTF) finds their offsets at load time. */
struct pt_regs {
    unsigned long di, si, dx, r10, r8, r9, orig_ax;
} __attribute__((preserve_access_index));
struct file;
struct fdtable {
    unsigned int max_fds;
    struct file **fd;
} __attribute__((preserve_access_index));
struct files_struct {
    struct fdtable *fdt;
} __attribute__((preserve_access_index));
struct task_struct {
    struct files_struct *files;
    int pid, tgid;
} __attribute__((preserve_access_index));

/* Set by user space before the load. */
const volatile __u32 target_tgid = 0;
/* Set by user space: 1 to follow the processes the target forks. */
const volatile __u32 follow = 0;
/* Set by user space: the largest select nfds whose sets are read
 * (MP_TR_SELECT_BITS where the kernel has bpf_loop, 5.17 and later). */
const volatile __s64 select_bits = MP_TR_SELECT_BITS_NOLOOP;
const volatile __u32 nevents = 0;
const volatile __u32 ncpus = 1;

#define EPOLL_CTL_ADD 1
#define EPOLL_CTL_DEL 2

/* A call between its entry and exit. */
struct entry {
    __u64 enter_ns;
    __s64 id;         /* the syscall's number: its exit is the exit of the same call */
    __s64 n, arg;
    __u64 epfile;     /* epoll_ctl: the instance's file */
    __s32 epfd, op;
    __u16 call;
    __u8 tclass, pad;
    __u32 cpu;
    __u32 ok;         /* bit e: count[e] read whole at entry */
    __u32 top;        /* select: the highest descriptor set + 1 */
    __u64 count[MP_TR_MAX_EVENTS];
};

struct epkey {
    __u64 file;   /* the instance's struct file */
};

struct seedkey {
    __u32 tgid;
    __s32 fd;
};

struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 65536);
    __type(key, __u32);
    __type(value, struct entry);
} inflight SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 65536);
    __type(key, struct epkey);
    __type(value, __s64);
} epolls SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, 4096);
    __type(key, struct seedkey);
    __type(value, __s64);
} seeds SEC(".maps");

/* The processes followed besides the target (follow): tgid -> the tgid that
 * forked it. */
struct {
    __uint(type, BPF_MAP_TYPE_HASH);
    __uint(max_entries, MP_TR_MAX_FOLLOWED);
    __type(key, __u32);
    __type(value, __u32);
} followed SEC(".maps");

#define RB_BYTES (16 << 20)
#define RB_HALF (RB_BYTES / 2)
struct {
    __uint(type, BPF_MAP_TYPE_RINGBUF);
    __uint(max_entries, RB_BYTES);
} records SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
    __uint(key_size, sizeof(__u32));
    __uint(value_size, sizeof(__u32));
    __uint(max_entries, 1);   /* nevents * ncpus, set before the load */
} counters SEC(".maps");

struct {
    __uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
    __uint(max_entries, MP_TR_NSTATS);
    __type(key, __u32);
    __type(value, __u64);
} stats SEC(".maps");

static __always_inline void stat_add(__u32 k)
{
    __u64 *v = bpf_map_lookup_elem(&stats, &k);
    if (v)
        (*v)++;
}

/* Whether thread group tgid is traced: the target, or one it forked. */
static __always_inline int traced(__u32 tgid)
{
    return tgid == target_tgid || (follow && bpf_map_lookup_elem(&followed, &tgid));
}

/* The struct file behind descriptor fd of the current task; 0 when none. */
static __always_inline __u64 fd_file(long fd)
{
    struct task_struct *t = (struct task_struct *)bpf_get_current_task();
    struct fdtable *fdt = BPF_CORE_READ(t, files, fdt);
    if (!fdt || fd < 0 || fd >= BPF_CORE_READ(fdt, max_fds))
        return 0;
    struct file **arr = BPF_CORE_READ(fdt, fd);
    struct file *f = 0;
    if (bpf_probe_read_kernel(&f, sizeof f, &arr[fd]))
        return 0;
    return (__u64)f;
}

/* The count of the instance at file (descriptor fd), moved from its seed
 * the first time; -1 when not known. */
static __always_inline __s64 epoll_count(__u32 tgid, __u64 file, long fd)
{
    if (!file)
        return -1;
    struct epkey k = {.file = file};
    __s64 *v = bpf_map_lookup_elem(&epolls, &k);
    if (v)
        return *v;
    struct seedkey s = {.tgid = tgid, .fd = (__s32)fd};
    v = bpf_map_lookup_elem(&seeds, &s);
    if (!v)
        return -1;
    __s64 n = *v;
    bpf_map_update_elem(&epolls, &k, &n, BPF_NOEXIST);
    bpf_map_delete_elem(&seeds, &s);
    return n;
}

static __always_inline __u64 popcount64(__u64 x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (x * 0x0101010101010101ULL) >> 56;
}

/* The highest bit set in w != 0, 0..63. */
static __always_inline __u32 top_bit(__u64 w)
{
    __u32 b = 0;
    if (w >> 32) { w >>= 32; b += 32; }
    if (w >> 16) { w >>= 16; b += 16; }
    if (w >> 8) { w >>= 8; b += 8; }
    if (w >> 4) { w >>= 4; b += 4; }
    if (w >> 2) { w >>= 2; b += 2; }
    if (w >> 1) b += 1;
    return b;
}

/* One set's words [w, w + k) of the target's memory ORed into acc; a set
 * that cannot be read adds nothing (the kernel's select fails on it too). */
static __always_inline void or_words(__u64 *acc, const __u64 *set, __u64 w, __u32 k)
{
    __u64 v[MP_TR_SELECT_CHUNK] = {};
    if (!set || k == 0 || k > MP_TR_SELECT_CHUNK)
        return;
    if (bpf_probe_read_user(v, k * sizeof v[0], set + w))
        return;
    for (int j = 0; j < MP_TR_SELECT_CHUNK; j++)
        acc[j] |= v[j];
}

/* What select_n has counted so far, for bpf_loop's callback. */
struct selcount {
    const __u64 *in, *out, *ex;
    __u64 words, bits;   /* the sets' length, nfds */
    __s64 n;             /* descriptors set so far */
    __u64 last;          /* the last word with a descriptor set, and its index */
    __u32 at;
};

/* The descriptors set in acc[0, k), words w0 onwards of the sets, added to
 * c: the last word cut at nfds, the last word with one set kept.  No branch
 * on the words' contents, so that the verifier walks one path, not one per
 * word that has a descriptor set (in a bpf_loop callback as in a loop). */
static __always_inline void count_words(struct selcount *c, const __u64 *acc, __u32 k, __u64 w0)
{
    __u64 lo = c->bits & 63, last_w = c->words - 1;
    __u64 partial = (1ULL << lo) - 1, lo_nz = (0 - lo) >> 63;
    for (__u64 j = 0; j < k; j++) {
        __u64 at = w0 + j;
        __u64 is_last = ((at ^ last_w) - 1) >> 63;       /* 1 when this is the last word */
        __u64 cut = is_last & lo_nz;                     /* 1 when it is cut at nfds */
        __u64 w = acc[j] & (~0ULL ^ ((~0ULL ^ partial) & (0 - cut)));
        __u64 nz = (w | (0 - w)) >> 63;                  /* 1 when w has a bit set */
        c->n += (__s64)popcount64(w);
        c->last ^= (c->last ^ w) & (0 - nz);
        c->at ^= (__u32)((c->at ^ at) & (0 - nz));
    }
}

/* Words [w0, w0 + MP_TR_SELECT_CHUNK) of the three sets, never past their
 * end; 1 (stop) past it. */
static long select_chunk(__u32 i, void *arg)
{
    struct selcount *c = arg;
    __u64 w0 = (__u64)i * MP_TR_SELECT_CHUNK;
    if (w0 >= c->words)
        return 1;
    __u64 left = c->words - w0;
    __u32 k = left < MP_TR_SELECT_CHUNK ? (__u32)left : MP_TR_SELECT_CHUNK;
    __u64 acc[MP_TR_SELECT_CHUNK] = {};
    or_words(acc, c->in, w0, k);
    or_words(acc, c->out, w0, k);
    or_words(acc, c->ex, w0, k);
    count_words(c, acc, MP_TR_SELECT_CHUNK, w0);
    return 0;
}

/* One set's first `words` words (1..MP_TR_SELECT_BITS_NOLOOP / 64) ORed into
 * acc; the rest of acc is left alone. */
static __always_inline void or_set(__u64 *acc, const __u64 *set, __u64 words)
{
    __u64 v[MP_TR_SELECT_BITS_NOLOOP / 64] = {};
    __u32 sz = (__u32)words * sizeof v[0];
    if (!set || sz == 0 || sz > sizeof v)
        return;
    if (bpf_probe_read_user(v, sz, set))
        return;
    for (int j = 0; j < MP_TR_SELECT_BITS_NOLOOP / 64; j++)
        acc[j] |= v[j];
}

/* select_chunk's count without bpf_loop, for nfds up to
 * MP_TR_SELECT_BITS_NOLOOP: each set read whole, then its words counted. */
static __always_inline void select_words(struct selcount *c)
{
    __u64 acc[MP_TR_SELECT_BITS_NOLOOP / 64] = {};
    or_set(acc, c->in, c->words);
    or_set(acc, c->out, c->words);
    or_set(acc, c->ex, c->words);
    count_words(c, acc, MP_TR_SELECT_BITS_NOLOOP / 64, 0);
}

/* select: the descriptors below nfds set in any of the three sets, and the
 * highest of them + 1 into *top; -1 when nfds is above select_bits (the
 * most this kernel lets the program read: MP_TR_SELECT_BITS with bpf_loop,
 * else FD_SETSIZE).  As the kernel does, nfds is first cut to the size of
 * the caller's descriptor table (a program may pass getdtablesize() over
 * 1,024-bit sets).  The sets are read MP_TR_SELECT_CHUNK words at a time
 * (bpf_loop) or whole (without it), never past that bound: the kernel reads
 * only that far, so the memory beyond may not exist.  loop, a constant, picks
 * one of the two, so that the program without bpf_loop never names its callback
 * (kernels before 5.13 refuse the reference even where it is dead code). */
static __always_inline __s64 select_n(long nfds, const __u64 *in, const __u64 *out,
                                      const __u64 *ex, __u32 *top, const int loop)
{
    *top = 0;
    if (nfds <= 0)
        return 0;
    struct task_struct *t = (struct task_struct *)bpf_get_current_task();
    struct fdtable *fdt = BPF_CORE_READ(t, files, fdt);
    if (fdt) {
        long max_fds = (long)BPF_CORE_READ(fdt, max_fds);
        if (nfds > max_fds)
            nfds = max_fds;
    }
    if (nfds <= 0)
        return 0;
    if (nfds > select_bits)
        return -1;
    struct selcount c = {.in = in, .out = out, .ex = ex, .bits = (__u64)nfds,
                         .words = ((__u64)nfds + 63) / 64};
    if (loop) {
        bpf_loop(MP_TR_SELECT_BITS / 64 / MP_TR_SELECT_CHUNK, select_chunk, &c, 0);
    } else {
        select_words(&c);
    }
    if (c.last)
        *top = c.at * 64 + top_bit(c.last) + 1;
    return c.n;
}

/* The class of a timeout given as a pointer to {seconds, fraction}. */
static __always_inline __u8 tclass_ptr(const void *p)
{
    long t[2] = {0, 0};
    if (!p)
        return MP_TR_T_INFINITE;
    if (bpf_probe_read_user(t, sizeof t, p))
        return MP_TR_T_FINITE;
    return t[0] == 0 && t[1] == 0 ? MP_TR_T_ZERO : MP_TR_T_FINITE;
}

static __always_inline __u8 tclass_ms(int ms)
{
    return ms == 0 ? MP_TR_T_ZERO : ms < 0 ? MP_TR_T_INFINITE : MP_TR_T_FINITE;
}

static __always_inline __u32 read_counters(__u64 *count, __u32 cpu)
{
    __u32 ok = 0;
    for (__u32 e = 0; e < MP_TR_MAX_EVENTS; e++) {
        if (e >= nevents)
            break;
        struct bpf_perf_event_value v = {};
        __u64 idx = (__u64)e * ncpus + cpu;
        if (bpf_perf_event_read_value(&counters, idx, &v, sizeof v) == 0 &&
            v.enabled == v.running) {
            count[e] = v.counter;
            ok |= 1u << e;
        }
    }
    return ok;
}

static __always_inline int sys_enter(struct bpf_raw_tracepoint_args *ctx, const int loop)
{
    __u64 pt = bpf_get_current_pid_tgid();
    __u32 tgid = pt >> 32, tid = (__u32)pt;
    if (!traced(tgid))
        return 0;
    long id = (long)ctx->args[1];
    struct pt_regs *regs = (struct pt_regs *)ctx->args[0];
    struct entry e = {};
    long a0 = BPF_CORE_READ(regs, di);
    switch (id) {
#ifdef __NR_select
    case __NR_select:   /* its timeval is two longs at r8, as pselect6's timespec */
#endif
    case __NR_pselect6:
        e.call = id == __NR_pselect6 ? MP_TR_PSELECT6 : MP_TR_SELECT;
        e.arg = a0;
        e.n = select_n(a0, (const __u64 *)BPF_CORE_READ(regs, si),
                       (const __u64 *)BPF_CORE_READ(regs, dx),
                       (const __u64 *)BPF_CORE_READ(regs, r10), &e.top, loop);
        e.tclass = tclass_ptr((const void *)BPF_CORE_READ(regs, r8));
        break;
#ifdef __NR_poll
    case __NR_poll:
        e.call = MP_TR_POLL;
        e.n = e.arg = (long)(unsigned int)BPF_CORE_READ(regs, si);
        e.tclass = tclass_ms((int)BPF_CORE_READ(regs, dx));
        break;
#endif
    case __NR_ppoll:
        e.call = MP_TR_PPOLL;
        e.n = e.arg = (long)(unsigned int)BPF_CORE_READ(regs, si);
        e.tclass = tclass_ptr((const void *)BPF_CORE_READ(regs, dx));
        break;
#ifdef __NR_epoll_wait
    case __NR_epoll_wait:
        e.call = MP_TR_EPOLL_WAIT;
        e.tclass = tclass_ms((int)BPF_CORE_READ(regs, r10));
        goto epoll;
#endif
    case __NR_epoll_pwait:
        e.call = MP_TR_EPOLL_PWAIT;
        e.tclass = tclass_ms((int)BPF_CORE_READ(regs, r10));
        goto epoll;
    case __NR_epoll_pwait2:
        e.call = MP_TR_EPOLL_PWAIT2;
        e.tclass = tclass_ptr((const void *)BPF_CORE_READ(regs, r10));
    epoll:
        e.arg = (long)(int)BPF_CORE_READ(regs, dx);
        e.n = epoll_count(tgid, fd_file((int)a0), (int)a0);
        break;
    case __NR_epoll_ctl:
        e.call = MP_TR_EPOLL_CTL;
        e.epfd = (int)a0;
        e.op = (int)BPF_CORE_READ(regs, si);
        e.epfile = fd_file((int)a0);
        break;
#ifdef __NR_epoll_create
    case __NR_epoll_create:
#endif
    case __NR_epoll_create1:
        e.call = MP_TR_EPOLL_CREATE;
        break;
    default:
        return 0;
    }
    e.id = id;
    e.cpu = bpf_get_smp_processor_id();
    if (e.call < MP_TR_NCALLS)
        e.ok = read_counters(e.count, e.cpu);
    e.enter_ns = bpf_ktime_get_ns();
    if (bpf_map_update_elem(&inflight, &tid, &e, BPF_ANY))
        stat_add(MP_TR_ST_NOSLOT);
    return 0;
}

/* The entry program, in two builds; user space loads the one the kernel can
 * run (have_loop) and leaves the other unloaded. */
SEC("raw_tp/sys_enter")
int mp_sys_enter(struct bpf_raw_tracepoint_args *ctx)
{
    return sys_enter(ctx, 1);
}

SEC("raw_tp/sys_enter")
int mp_sys_enter_noloop(struct bpf_raw_tracepoint_args *ctx)
{
    return sys_enter(ctx, 0);
}

SEC("raw_tp/sys_exit")
int mp_sys_exit(struct bpf_raw_tracepoint_args *ctx)
{
    __u64 now = bpf_ktime_get_ns();
    __u64 pt = bpf_get_current_pid_tgid();
    __u32 tgid = pt >> 32, tid = (__u32)pt;
    if (!traced(tgid))
        return 0;
    struct entry *e = bpf_map_lookup_elem(&inflight, &tid);
    if (!e)
        return 0;
    long ret = (long)ctx->args[1];
    struct pt_regs *regs = (struct pt_regs *)ctx->args[0];
    if (BPF_CORE_READ(regs, orig_ax) != (unsigned long)e->id) {
        /* an entry left by a thread that died inside its call, its tid reused */
        bpf_map_delete_elem(&inflight, &tid);
        return 0;
    }
    if (e->call == MP_TR_EPOLL_CTL) {
        if (ret == 0 && (e->op == EPOLL_CTL_ADD || e->op == EPOLL_CTL_DEL)) {
            __s64 n = epoll_count(tgid, e->epfile, e->epfd);
            if (n >= 0) {
                n += e->op == EPOLL_CTL_ADD ? 1 : -1;
                if (n < 0)
                    n = 0;
                struct epkey k = {.file = e->epfile};
                bpf_map_update_elem(&epolls, &k, &n, BPF_ANY);
            }
        }
    } else if (e->call == MP_TR_EPOLL_CREATE) {
        __u64 f = ret >= 0 ? fd_file(ret) : 0;
        if (f) {
            struct epkey k = {.file = f};
            __s64 zero = 0;
            bpf_map_update_elem(&epolls, &k, &zero, BPF_ANY);
            struct seedkey s = {.tgid = tgid, .fd = (__s32)ret};
            bpf_map_delete_elem(&seeds, &s);
        }
    } else {
        struct mp_trace_rec *r = bpf_ringbuf_reserve(&records, sizeof *r, 0);
        if (!r) {
            stat_add(MP_TR_ST_LOST);
        } else {
            __u64 count[MP_TR_MAX_EVENTS] = {};
            __u32 cpu = bpf_get_smp_processor_id();
            __u32 ok = cpu == e->cpu ? read_counters(count, cpu) & e->ok : 0;
            r->enter_ns = e->enter_ns;
            r->exit_ns = now;
            r->ret = ret;
            r->n = e->n;
            r->arg = e->arg;
            r->tid = tid;
            r->call = e->call;
            r->tclass = e->tclass;
            r->pad = 0;
            r->cpu_enter = e->cpu;
            r->cpu_exit = cpu;
            r->counted = ok;
            r->top = e->top;
            for (int i = 0; i < MP_TR_MAX_EVENTS; i++)
                r->delta[i] = (ok & (1u << i)) ? count[i] - e->count[i] : 0;
            /* user space reads every 100 ms: woken early only when half full, so
             * that the tracer's own wakeups stay off the target's CPUs */
            bpf_ringbuf_submit(r, bpf_ringbuf_query(&records, BPF_RB_AVAIL_DATA) > RB_HALF
                                      ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP);
        }
    }
    bpf_map_delete_elem(&inflight, &tid);
    return 0;
}

/* A process forked by a traced one is traced from its first instruction
 * (follow); a new thread belongs to its traced group already. */
SEC("raw_tp/sched_process_fork")
int mp_fork(struct bpf_raw_tracepoint_args *ctx)
{
    __u32 tgid = bpf_get_current_pid_tgid() >> 32;
    if (!follow || !traced(tgid))
        return 0;
    struct task_struct *child = (struct task_struct *)ctx->args[1];
    __u32 pid = (__u32)BPF_CORE_READ(child, pid);
    if (pid != (__u32)BPF_CORE_READ(child, tgid))
        return 0;
    if (bpf_map_update_elem(&followed, &pid, &tgid, BPF_NOEXIST))
        stat_add(MP_TR_ST_NOFOLLOW);
    else
        stat_add(MP_TR_ST_FOLLOWED);
    return 0;
}

/* A followed process's leader exits: its number may be reused by another. */
SEC("raw_tp/sched_process_exit")
int mp_exit(struct bpf_raw_tracepoint_args *ctx)
{
    if (!follow)
        return 0;
    struct task_struct *p = (struct task_struct *)ctx->args[0];
    __u32 pid = (__u32)BPF_CORE_READ(p, pid);
    if (pid == (__u32)BPF_CORE_READ(p, tgid))
        bpf_map_delete_elem(&followed, &pid);
    return 0;
}
