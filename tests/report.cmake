# SPDX-License-Identifier: MIT
# Tests of reports, analysis and figures.  Label: report.
mp_add_test(test_numeric LIBS mp_report SOURCES test_numeric.c LABELS report)
mp_add_test(test_report LIBS mp_report SOURCES test_report.c LABELS report)
mp_add_test(test_verdicts LIBS mp_report SOURCES test_verdicts.c LABELS report)
mp_add_test(test_report_xtable LIBS mp_cmd SOURCES test_report_xtable.c LABELS report)
mp_add_test(test_report_figures LIBS mp_report SOURCES test_report_figures.c
  LABELS report TIMEOUT 300
  NATIVE_ONLY "gnuplot started from an emulated process hangs under qemu-user")
# report --paper: the PDFs' axes from the data's range, ticks, legend inside,
# fits the captions name; without it the wrappers unchanged; drawn (gnuplot's
# state per PDF) where gnuplot is installed.
mp_add_test(test_report_paper LIBS mp_report SOURCES test_report_paper.c
  LABELS report TIMEOUT 300
  NATIVE_ONLY "gnuplot started from an emulated process hangs under qemu-user")
# The note on CPU-wide (uncore) counts in the counters section.
mp_add_test(test_report_cpu_wide LIBS mp_report SOURCES test_report_cpu_wide.c LABELS report)
# Both tests below start the binary from a script (python3 or sh): native builds
# only, an emulated binary cannot be started that way.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  # scripts/readme-results.py (the README's results section) on fixture runs, read
  # through report --json; 77 without python3.
  add_test(NAME test_readme_results
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_readme_results.sh ${CMAKE_SOURCE_DIR}
                   ${CMAKE_CURRENT_BINARY_DIR}/readme-results-test $<TARGET_FILE:muxprof>)
  set_tests_properties(test_readme_results PROPERTIES LABELS report TIMEOUT 60 SKIP_RETURN_CODE 77)
  # report --json against the numbers of the same fixtures' report.md; 77 without python3.
  add_test(NAME test_report_json
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_report_json.sh $<TARGET_FILE:muxprof>
                   ${CMAKE_CURRENT_SOURCE_DIR}/fixtures ${CMAKE_CURRENT_BINARY_DIR}/report-json-test)
  set_tests_properties(test_report_json PROPERTIES LABELS report TIMEOUT 60 SKIP_RETURN_CODE 77)
endif()

# The repository stands alone: no path of the private workspace, no dangling doc link.
add_test(NAME test_standalone
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_standalone.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(test_standalone PROPERTIES LABELS report TIMEOUT 60)

# --anonymize's table of results.json fields: what is replaced, dropped and kept.
mp_add_test(test_report_anonymize LIBS mp_report SOURCES test_report_anonymize.c
  LABELS report privacy hardening)
# Injections in results.json strings and compare labels: nothing runs, no raw markup.
mp_add_test(test_inject LIBS mp_report SOURCES test_inject.c LABELS "report;hardening" TIMEOUT 300
  NATIVE_ONLY "gnuplot started from an emulated process hangs under qemu-user")
# The gnuplot runner: no init files, a time limit, SIGINT stops the drawing.
mp_add_test(test_plot LIBS mp_report SOURCES test_plot.c LABELS "report;hardening" TIMEOUT 300
  NATIVE_ONLY "it starts gnuplot and muxprof run, which hang or mean nothing under qemu-user")
# results.json parsed strictly (one document, no key twice) by report and compare.
add_test(NAME test_strict_json
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_strict_json.sh ${MP_TEST_BIN_PATH}
                 ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
set_tests_properties(test_strict_json PROPERTIES LABELS "report;hardening" TIMEOUT 60)
# The limits on a results.json (size, cells): over either, report and compare refuse it.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_input_limits
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_input_limits.sh $<TARGET_FILE:muxprof>
                   ${CMAKE_CURRENT_SOURCE_DIR}/fixtures ${CMAKE_CURRENT_BINARY_DIR}/input-limits-test)
  set_tests_properties(test_input_limits PROPERTIES LABELS "report;hardening" TIMEOUT 300
    SKIP_RETURN_CODE 77)
endif()
# Intervals and tests over repeats, and their coverage on synthetic drifting runs; the
# family level of a series' intervals.
mp_add_test(test_replicates LIBS mp_report SOURCES test_replicates.c LABELS run)
# Exit statuses that are true: an unknown top-level status, a run with no
# cell, a stop signal while gnuplot draws, a stray option of events/topology.
add_test(NAME test_report_exits
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_report_exits.sh ${MP_TEST_BIN_PATH}
                 ${CMAKE_SOURCE_DIR})
set_tests_properties(test_report_exits PROPERTIES LABELS "report;hardening" TIMEOUT 120)
