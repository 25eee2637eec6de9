# Tests of reports, analysis and figures.  Label: report.
mp_add_test(test_analysis SOURCES test_analysis.c LABELS report)
mp_add_test(test_report SOURCES test_report.c LABELS report)
mp_add_test(test_report_figures SOURCES test_report_figures.c LABELS report TIMEOUT 300
  NATIVE_ONLY "gnuplot started from an emulated process hangs under qemu-user")
