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

/* The PMU counter an instruction word reads from EL0, for the plugin's
 * pmureads: 0..30 for `mrs Xt, PMEVCNTR<n>_EL0`, 31 for PMCCNTR_EL0, -1 for
 * anything else.  MRS is 0xd5300000 | o0 << 19 | op1 << 16 | CRn << 12 |
 * CRm << 8 | op2 << 5 | Rt; these registers have op0 3 (o0 1) and op1 3;
 * PMEVCNTR<n> is CRn 14, CRm 0b10:n[4:3], op2 n[2:0]; PMCCNTR is CRn 9,
 * CRm 13, op2 0 (op2 2 there is PMXEVCNTR, the indirect read, not taken). */
static inline int mp_sim_pmu_counter_read(unsigned w)
{
    if ((w & 0xfff00000u) != 0xd5300000u || !((w >> 19) & 1) || ((w >> 16) & 7) != 3)
        return -1;
    unsigned crn = (w >> 12) & 15, crm = (w >> 8) & 15, op2 = (w >> 5) & 7;
    if (crn == 14 && (crm >> 2) == 2)
        return (int)(((crm & 3) << 3) | op2);
    if (crn == 9 && crm == 13 && op2 == 0)
        return 31;
    return -1;
}

#endif
