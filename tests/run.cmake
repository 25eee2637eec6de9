# Tests of src/run/: the descriptor helper, whole runs through the binary.
mp_add_test(test_peer SOURCES test_peer.c LABELS run)
mp_add_test(test_run SOURCES test_run.c LABELS run integration TIMEOUT 300)
mp_add_test(test_bias SOURCES test_bias.c LABELS run integration TIMEOUT 300
  NATIVE_ONLY "/proc task states and timings of an emulated process are qemu's")
mp_add_test(test_bias_unprivileged SOURCES test_bias.c ARGS unprivileged LABELS run integration
  TIMEOUT 300 NATIVE_ONLY "perf_event_open gives ENOSYS under qemu-user")
# scripts/bias-check.py (ready cells with and without wakeup mode, alternated) on synthetic
# runs; 77 without python3.
add_test(NAME test_bias_check
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_bias_check.sh ${CMAKE_SOURCE_DIR}
                 ${CMAKE_CURRENT_BINARY_DIR}/bias-check-test)
set_tests_properties(test_bias_check PROPERTIES LABELS run TIMEOUT 60 SKIP_RETURN_CODE 77)
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
