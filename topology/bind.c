/* SPDX-License-Identifier: MIT */
/* bind.c - bind the calling thread to one PU through hwloc and check, after
 * the fact, that the binding holds and the thread last ran there. */
#include "internal.h"

#include <sched.h>
#include <string.h>

int mp_topo_bind_thread(const mp_topo *t, int pu, mp_err *err)
{
    char cpus[128];
    if (pu < 0)
        return 0;
    if (!t->is_host)
        return mp_errf(err, -EXDEV,
                       "topology: cannot bind to PU %d: the topology is %s, not this "
                       "host's; load it with mp_topo_load(..., NULL, ...)", pu, t->source);
    hwloc_obj_t obj = hwloc_get_pu_obj_by_os_index(t->topo, (unsigned)pu);
    if (!obj)
        return mp_errf(err, -EINVAL,
                       "topology: cannot bind to PU %d: this host has no such PU; "
                       "see muxprof topology for the PU numbers", pu);
    if (!mp__usable(t, obj)) {
        mp_topo_usable_list(t, cpus, sizeof cpus);
        return mp_errf(err, -EPERM,
                       "topology: cannot bind to PU %d: it is outside the CPUs this "
                       "process may use (%s, from the cgroup cpuset and affinity); pick "
                       "a placement within them or widen the cpuset", pu, cpus);
    }

    hwloc_bitmap_t set = hwloc_bitmap_dup(obj->cpuset);
    hwloc_bitmap_t got = hwloc_bitmap_alloc();
    int rc = 0;
    if (!set || !got) {
        rc = mp_errf(err, -ENOMEM, "topology: out of memory binding to PU %d", pu);
        goto out;
    }
    hwloc_bitmap_singlify(set);

    /* Strict where the OS supports it; some OSes reject the flag outright. */
    errno = 0;
    int r = hwloc_set_cpubind(t->topo, set, HWLOC_CPUBIND_THREAD | HWLOC_CPUBIND_STRICT);
    if (r < 0 && (errno == ENOSYS || errno == EXDEV)) {
        errno = 0;
        r = hwloc_set_cpubind(t->topo, set, HWLOC_CPUBIND_THREAD);
    }
    if (r < 0) {
        int e = errno ? errno : EIO;
        rc = mp_errf(err, -e,
                     "topology: binding this thread to PU %d failed: %s (hwloc_set_cpubind); "
                     "a container or VM may forbid it (allow sched_setaffinity) - "
                     "the measurement runs unpinned", pu, strerror(e));
        goto out;
    }

    /* Check the binding is what we asked for ... */
    if (hwloc_get_cpubind(t->topo, got, HWLOC_CPUBIND_THREAD) < 0) {
        int e = errno ? errno : EIO;
        rc = mp_errf(err, -e,
                     "topology: bound to PU %d but cannot read the binding back: %s; "
                     "treat the thread as unpinned", pu, strerror(e));
        goto out;
    }
    if (!hwloc_bitmap_isequal(got, set)) {
        hwloc_bitmap_list_snprintf(cpus, sizeof cpus, got);
        rc = mp_errf(err, -EXDEV,
                     "topology: asked to bind to PU %d but the thread may run on %s; "
                     "the OS did not apply the binding, treat the thread as unpinned",
                     pu, cpus);
        goto out;
    }
    /* ... and that the thread really moved there (the kernel migrates the
     * caller before sched_setaffinity returns; yield a few times if not). */
    for (int tries = 0;; tries++) {
        if (hwloc_get_last_cpu_location(t->topo, got, HWLOC_CPUBIND_THREAD) < 0) {
            int e = errno ? errno : EIO;
            if (e == ENOSYS)
                break;   /* cannot check here; the binding itself was read back */
            rc = mp_errf(err, -e,
                         "topology: bound to PU %d but cannot read where the thread "
                         "runs: %s; treat the thread as unpinned", pu, strerror(e));
            goto out;
        }
        if (hwloc_bitmap_isincluded(got, set))
            break;
        if (tries == 3) {
            hwloc_bitmap_list_snprintf(cpus, sizeof cpus, got);
            rc = mp_errf(err, -EXDEV,
                         "topology: bound to PU %d but the thread still ran on %s; the "
                         "OS does not honour the binding, treat the thread as unpinned",
                         pu, cpus);
            goto out;
        }
        sched_yield();
    }
out:
    hwloc_bitmap_free(set);
    hwloc_bitmap_free(got);
    return rc;
}
