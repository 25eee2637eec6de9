# scripts/cachesim.sh without booting: usage errors, --dry-run, results.json
# assembled from recorded boots, the report of it (the boots themselves run in
# CI: scripts/ci-cachesim.sh).
find_program(MP_PYTHON3 python3)
if(MP_PYTHON3 AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME test_cachesim COMMAND sh ${CMAKE_SOURCE_DIR}/tests/test_cachesim.sh
           ${CMAKE_SOURCE_DIR} $<TARGET_FILE:muxprof>)
  set_tests_properties(test_cachesim PROPERTIES LABELS "cachesim;integration" TIMEOUT 120)
endif()
