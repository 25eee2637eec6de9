/* SPDX-License-Identifier: MIT */
/* test_topology_bind.c - bind a thread on the real host with
 * mp_topo_bind_thread and check, without hwloc, where it ran: the kernel's
 * affinity mask and sched_getcpu().  Exits 77 when this host forbids
 * binding (container without sched_setaffinity, ENOSYS/EXDEV). */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topology/topology.h"

#define SKIP 77

struct job {
    mp_topo *t;
    int pu;
    int rc;
    int cpu_after;          /* sched_getcpu() after binding */
    int mask_count;         /* CPUs in the thread's mask after binding */
    int mask_has_pu;
    mp_err err;
};

static void *bind_and_look(void *arg)
{
    struct job *j = arg;
    cpu_set_t set;
    mp_err_clear(&j->err);
    j->rc = mp_topo_bind_thread(j->t, j->pu, &j->err);
    if (j->rc == 0) {
        j->cpu_after = sched_getcpu();
        CPU_ZERO(&set);
        if (sched_getaffinity(0, sizeof set, &set) == 0) {
            j->mask_count = CPU_COUNT(&set);
            j->mask_has_pu = CPU_ISSET(j->pu, &set);
        }
    }
    return NULL;
}

static int run_in_thread(struct job *j)
{
    pthread_t th;
    if (pthread_create(&th, NULL, bind_and_look, j) != 0)
        return -1;
    return pthread_join(th, NULL);
}

int main(void)
{
    mp_topo *t = NULL;
    mp_err err;
    cpu_set_t before, after;
    int failures = 0;

    mp_err_clear(&err);
    if (mp_topo_load(&t, NULL, &err) < 0) {
        printf("SKIP: cannot load this host's topology: %s\n", err.msg);
        return SKIP;
    }
    if (!mp_topo_is_host(t)) {
        printf("SKIP: hwloc does not see this system (HWLOC_XMLFILE/HWLOC_SYNTHETIC set?)\n");
        mp_topo_free(t);
        return SKIP;
    }
    CPU_ZERO(&before);
    if (sched_getaffinity(0, sizeof before, &before) != 0) {
        printf("SKIP: sched_getaffinity failed\n");
        mp_topo_free(t);
        return SKIP;
    }
    /* The highest CPU we may use: not the one the thread starts on, often. */
    int pu = -1;
    for (int c = CPU_SETSIZE - 1; c >= 0; c--)
        if (CPU_ISSET(c, &before)) {
            pu = c;
            break;
        }

    struct job j = {.t = t, .pu = pu};
    if (run_in_thread(&j) != 0) {
        printf("FAIL: pthread_create/join\n");
        return 1;
    }
    if (j.rc == -ENOSYS || j.rc == -EXDEV || j.rc == -EPERM) {
        printf("SKIP: binding is impossible here: %s\n", j.err.msg);
        mp_topo_free(t);
        return SKIP;
    }
    if (j.rc != 0) {
        printf("FAIL: binding to PU %d: rc %d: %s\n", pu, j.rc, j.err.msg);
        failures++;
    } else {
        printf("bound a thread to PU %d: it ran on CPU %d, mask of %d CPU(s)\n",
               pu, j.cpu_after, j.mask_count);
        if (j.cpu_after != pu) {
            printf("FAIL: thread ran on CPU %d, not %d\n", j.cpu_after, pu);
            failures++;
        }
        if (j.mask_count != 1 || !j.mask_has_pu) {
            printf("FAIL: affinity mask has %d CPUs (PU %d %s)\n", j.mask_count, pu,
                   j.mask_has_pu ? "in it" : "missing");
            failures++;
        }
    }

    /* Thread binding, not process binding: the main thread is untouched. */
    CPU_ZERO(&after);
    sched_getaffinity(0, sizeof after, &after);
    if (!CPU_EQUAL(&before, &after)) {
        printf("FAIL: binding one thread changed the main thread's affinity\n");
        failures++;
    }

    /* A PU this host does not have is refused with a message. */
    struct job bad = {.t = t, .pu = 100000};
    run_in_thread(&bad);
    if (bad.rc != -EINVAL || !strstr(bad.err.msg, "100000")) {
        printf("FAIL: binding to PU 100000: rc %d (want %d): %s\n", bad.rc, -EINVAL,
               bad.err.msg);
        failures++;
    }
    /* pu < 0 does nothing. */
    struct job none = {.t = t, .pu = -1};
    run_in_thread(&none);
    if (none.rc != 0) {
        printf("FAIL: pu -1 returned %d\n", none.rc);
        failures++;
    }

    mp_topo_free(t);

    /* Affinity narrows the usable PUs: load again while this (only) thread
     * may run on one CPU only, then ask for another one. */
    int other = -1;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &before) && c != pu) {
            other = c;
            break;
        }
    if (other < 0) {
        printf("note: one usable CPU only, affinity narrowing not checked\n");
    } else {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(pu, &one);
        if (sched_setaffinity(0, sizeof one, &one) != 0) {
            printf("FAIL: sched_setaffinity to CPU %d\n", pu);
            return 1;
        }
        mp_err_clear(&err);
        if (mp_topo_load(&t, NULL, &err) < 0) {
            printf("FAIL: reload: %s\n", err.msg);
            return 1;
        }
        char list[64];
        mp_topo_usable_list(t, list, sizeof list);
        char want[16];
        snprintf(want, sizeof want, "%d", pu);
        if (strcmp(list, want) != 0) {
            printf("FAIL: usable PUs under taskset-like affinity %s, want %s\n", list, want);
            failures++;
        }
        struct job out = {.t = t, .pu = other};
        run_in_thread(&out);
        if (out.rc != -EPERM || !strstr(out.err.msg, "outside")) {
            printf("FAIL: binding to PU %d outside the affinity: rc %d (want %d): %s\n",
                   other, out.rc, -EPERM, out.err.msg);
            failures++;
        }
        mp_topo_free(t);
        sched_setaffinity(0, sizeof before, &before);
    }
    if (failures)
        return 1;
    printf("ok\n");
    return 0;
}
