# SPDX-License-Identifier: MIT
# Tests of `muxprof compare` and the reference datasets.  Label: compare.
mp_add_test(test_compare LIBS mp_cmd SOURCES test_compare.c LABELS compare)

# The host's level: a canary per pass in results.json; compare calls a shift
# the canaries explain "host level", not slower or faster.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_canary COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_canary.sh $<TARGET_FILE:muxprof>)
  set_tests_properties(test_canary PROPERTIES LABELS "compare;run" SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()

# compare --pool K: the runs of each side pooled, the run the replicate.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_compare_pool
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_compare_pool.sh $<TARGET_FILE:muxprof>)
  set_tests_properties(test_compare_pool PROPERTIES LABELS compare SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()
