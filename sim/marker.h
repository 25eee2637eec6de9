/* SPDX-License-Identifier: MIT */
/* marker.h - the counting-window markers of `muxprof loop` (src/cmd/loop.c
 * executes them).  On arm64: HINT instructions whose immediates the Arm
 * architecture leaves unallocated, so that hardware and QEMU (the default
 * case of handle_hint in target/arm/translate-a64.c) run them as NOPs.
 * HINT #imm is 0xd503201f | imm << 5.  On x86_64: the multi-byte NOP
 * 0F 1F /0 with a ModRM of 80 (nopl disp32(%rax)), seven bytes, whose 32-bit
 * displacement carries MP_SIM_X86_MAGIC | imm; compilers pad with displacements
 * of 0, so these bytes come only from the markers. */
#ifndef MP_SIM_MARKER_H
#define MP_SIM_MARKER_H

#define MP_SIM_MARK_CELL 112    /* once, before a cell's calls */
#define MP_SIM_MARK_BEGIN 113   /* just before each call */
#define MP_SIM_MARK_END 114     /* just after each call */

#define MP_SIM_HINT(imm) (0xd503201fu | ((unsigned)(imm) << 5))

#define MP_SIM_X86_MAGIC 0x4d585000u   /* "MXP" in the displacement's high bytes */
#define MP_SIM_X86_LEN 7               /* 0F 1F 80 and the displacement */
#define MP_SIM_X86_DISP(imm) (MP_SIM_X86_MAGIC | (unsigned)(imm))

#endif
