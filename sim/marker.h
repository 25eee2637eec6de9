/* SPDX-License-Identifier: MIT */
/* marker.h - the counting-window markers of `muxprof loop` on arm64
 * (src/cmd/loop.c executes them): HINT instructions whose immediates the
 * Arm architecture leaves unallocated, so that hardware and QEMU (the
 * default case of handle_hint in target/arm/translate-a64.c) run them as
 * NOPs.  HINT #imm is 0xd503201f | imm << 5. */
#ifndef MP_SIM_MARKER_H
#define MP_SIM_MARKER_H

#define MP_SIM_MARK_CELL 112    /* once, before a cell's calls */
#define MP_SIM_MARK_BEGIN 113   /* just before each call */
#define MP_SIM_MARK_END 114     /* just after each call */

#define MP_SIM_HINT(imm) (0xd503201fu | ((unsigned)(imm) << 5))

#endif
