/* SPDX-License-Identifier: MIT */
/* rdpmc.h - the architecture's user-space counter and cycle reads
 * (rdpmc.c); MP__HAVE_USER_READ says whether this build has any. */
#ifndef MP_PMU_RDPMC_H
#define MP_PMU_RDPMC_H

#include <stdint.h>

#if defined(__aarch64__)
#define MP__HAVE_USER_READ 1
#define MP__USER_READ_NAME "mrs"
#elif defined(__x86_64__) || defined(__i386__)
#define MP__HAVE_USER_READ 1
#define MP__USER_READ_NAME "rdpmc"
#else
#define MP__HAVE_USER_READ 0
#endif

#if MP__HAVE_USER_READ
uint64_t mp__hw_counter(unsigned counter, void *ctx);
uint64_t mp__hw_cycles(void *ctx);
#endif

#endif
