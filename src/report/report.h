/* report.h - report.md and figures for a run directory, built from its
 * results.json alone (so `muxprof report DIR` can rebuild them). */
#ifndef MP_REPORT_H
#define MP_REPORT_H

#include "common/mp_err.h"

/* Write DIR/report.md and, when figures != 0 and gnuplot is installed,
 * DIR/figures/.  Without gnuplot the report says how to get the figures. */
int mp_report_build(const char *run_dir, int figures, mp_err *err);

#endif
