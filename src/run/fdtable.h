/* SPDX-License-Identifier: MIT */
/* fdtable.h - hold the measuring process's descriptor table shared on
 * purpose: one extra thread, parked in a blocking read, for --fd-table
 * shared.  A thread shares the table (CLONE_FILES), and the kernel's fd
 * lookup then takes and drops a reference on every file of every call
 * instead of skipping that for a table with one user.
 * Error convention: mp_err.h. */
#ifndef MP_FDTABLE_H
#define MP_FDTABLE_H

#include "common/mp_err.h"

typedef struct mp_parked mp_parked;

/* Start the parked thread; it does nothing until mp_parked_stop(). */
int mp_parked_start(mp_parked **out, mp_err *err);
/* Wake, join and free it; NULL is fine. */
void mp_parked_stop(mp_parked *p);

#endif
