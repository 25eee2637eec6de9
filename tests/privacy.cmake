# Outputs to publish (--anonymize): label privacy.
mp_add_test(test_anonymize SOURCES test_anonymize.c LABELS privacy)
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_anonymize_cli
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_anonymize_cli.sh $<TARGET_FILE:muxprof>)
  set_tests_properties(test_anonymize_cli PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120
    LABELS privacy)
endif()
# The report's note on CPU-wide (uncore) counts.
mp_add_test(test_report_cpu_wide SOURCES test_report_cpu_wide.c LABELS report)
