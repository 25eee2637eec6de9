# SPDX-License-Identifier: MIT
# Tests of src/run/: the descriptor helper, whole runs through the binary.
mp_add_test(test_peer LIBS mp_run SOURCES test_peer.c LABELS run)
# The poker's wake delay: each write no earlier than the delay after the waiter slept.
mp_add_test(test_poker LIBS mp_run SOURCES test_poker.c LABELS run TIMEOUT 60
  NATIVE_ONLY "/proc task states of an emulated process are qemu's")
mp_add_test(test_progress LIBS mp_cmd SOURCES test_progress.c LABELS run)
# mp_run_measure and the steps it is given: called where a run needs them,
# their results in the outcome; a journal left in the directory refused.
mp_add_test(test_measure LIBS mp_cmd SOURCES test_measure.c LABELS run TIMEOUT 120)
mp_add_test(test_run LIBS PkgConfig::CJSON m SOURCES test_run.c LABELS run integration TIMEOUT 300)
mp_add_test(test_bias LIBS mp_run SOURCES test_bias.c LABELS run integration TIMEOUT 300
  NATIVE_ONLY "/proc task states and timings of an emulated process are qemu's")
mp_add_test(test_bias_unprivileged LIBS mp_run SOURCES test_bias.c ARGS unprivileged
  LABELS run integration TIMEOUT 300 NATIVE_ONLY "perf_event_open gives ENOSYS under qemu-user")
# scripts/bias-check.py (ready cells with and without wakeup mode, alternated) on synthetic
# runs; 77 without python3.
add_test(NAME test_bias_check
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_bias_check.sh ${CMAKE_SOURCE_DIR}
                 ${CMAKE_CURRENT_BINARY_DIR}/bias-check-test)
set_tests_properties(test_bias_check PROPERTIES LABELS run TIMEOUT 60 SKIP_RETURN_CODE 77)
# A run that did not do all it was asked exits non-zero and says what: figures
# that failed, cells in error after the helper was killed; samples that
# spanned a SIGSTOP are counted.
foreach(case report-fails helper-killed sigstop)
  add_test(NAME test_run_outcome_${case}
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_run_outcome.sh ${MP_TEST_BIN_PATH} ${case})
  set_tests_properties(test_run_outcome_${case} PROPERTIES LABELS "run;hardening" TIMEOUT 300
                       SKIP_RETURN_CODE 77)
endforeach()
# A helper or poker that cannot be forked (RLIMIT_NPROC, as a user the test
# creates): the reason on stderr, exit 1, no run directory left that it created.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)   # the binary is copied for the user to run
  add_test(NAME test_run_fork_fail
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_run_fork_fail.sh $<TARGET_FILE:muxprof>)
  set_tests_properties(test_run_fork_fail PROPERTIES LABELS "run;hardening" TIMEOUT 120
                       SKIP_RETURN_CODE 77)
endif()
# Wakeup mode whose poker is killed, stopped, or stopped before a SIGINT: the run ends
# by itself with the cells failed and the reason, or as interrupted.
if(CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_wakeup_partner COMMAND sh -c "echo 'SKIP: needs native process control'; exit 77")
else()
  add_test(NAME test_wakeup_partner
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_wakeup_partner.sh $<TARGET_FILE:muxprof>
                   ${CMAKE_CURRENT_BINARY_DIR}/wakeup-partner-test)
endif()
set_tests_properties(test_wakeup_partner PROPERTIES LABELS "run;hardening" TIMEOUT 180
  SKIP_RETURN_CODE 77)
# A run without gnuplot on PATH says so once and how to draw the figures later
# (native only: the emulator wrapper itself is found through PATH).
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_run_no_gnuplot
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_run_no_gnuplot.sh $<TARGET_FILE:muxprof>
                   ${CMAKE_CURRENT_BINARY_DIR}/run-no-gnuplot)
  set_tests_properties(test_run_no_gnuplot PROPERTIES LABELS "run;hardening" TIMEOUT 120)
endif()
# muxprof sim-import on a recorded scripts/muxsim.sh boot: results.json from the
# plugin's summaries, failed loops, malformed inputs.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_sim_import COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_sim_import.sh
           $<TARGET_FILE:muxprof> ${CMAKE_SOURCE_DIR})
  set_tests_properties(test_sim_import PROPERTIES LABELS "run;sim" TIMEOUT 120
                       SKIP_RETURN_CODE 77)
endif()
# results.json's config as run/ writes it from a configuration: the exact bytes.
mp_add_test(test_config_record LIBS mp_run SOURCES test_config_record.c LABELS run)
# sim-import on a stranger's directory: geometries only by name or from inside
# DIR without following links, no line of an outside file echoed, nothing
# written that report would refuse.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_sim_import_inputs COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_sim_import_inputs.sh
           $<TARGET_FILE:muxprof> ${CMAKE_SOURCE_DIR})
  set_tests_properties(test_sim_import_inputs PROPERTIES LABELS "run;sim;hardening" TIMEOUT 120)
endif()
# Two runs with every dimension and run parameter varied: results.csv,
# samples.csv and experiments.csv keep each cell apart by the key columns their
# headers give and match results.json; the terminal shows every measured cell;
# clock counters are in ns; no report table without rows.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_run_exports
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_run_exports.sh $<TARGET_FILE:muxprof>
                   ${CMAKE_CURRENT_BINARY_DIR}/run-exports)
  set_tests_properties(test_run_exports PROPERTIES LABELS run TIMEOUT 180 SKIP_RETURN_CODE 77)
endif()

# poll's median over epoll's: one number in the run's table, the findings,
# report.md, report --json, the figures' data and compare.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_one_ratio
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_one_ratio.sh $<TARGET_FILE:muxprof>)
  set_tests_properties(test_one_ratio PROPERTIES LABELS run TIMEOUT 120 SKIP_RETURN_CODE 77)
  # The same for a cell's median, a per-descriptor cost and compare's change.
  add_test(NAME test_one_estimate
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_one_estimate.sh $<TARGET_FILE:muxprof>)
  set_tests_properties(test_one_estimate PROPERTIES LABELS run TIMEOUT 120 SKIP_RETURN_CODE 77)
endif()

# A run waits, within its bound, for a busy host to settle, and records the wait.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_settle COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_settle.sh $<TARGET_FILE:muxprof>)
  set_tests_properties(test_settle PROPERTIES LABELS run TIMEOUT 120)
endif()

# tcp fds in a network namespace of their own: the loopback down, the local ports used up.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_loop_tcp COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_loop_tcp.sh
           $<TARGET_FILE:muxprof>)
  set_tests_properties(test_loop_tcp PROPERTIES LABELS run SKIP_RETURN_CODE 77 TIMEOUT 60)
endif()
