# SPDX-License-Identifier: MIT
# Tests of src/common/.
mp_add_test(test_stats LIBS mp_common SOURCES test_stats.c LABELS run)
# --anonymize's mechanism: free text scrubbed by shape, documents rewritten by field paths.
mp_add_test(test_anonymize LIBS mp_common SOURCES test_anonymize.c LABELS privacy hardening)
# The version, taken at build time (cmake/version.cmake).
add_test(NAME test_version COMMAND ${CMAKE_COMMAND} -DSCRIPT=${CMAKE_SOURCE_DIR}/cmake/version.cmake
  -DWORK=${CMAKE_CURRENT_BINARY_DIR}/version-test -DBIN=${MP_TEST_BIN_PATH}
  -DBUILT=${CMAKE_BINARY_DIR}/version.c -DRELEASE=${PROJECT_VERSION}
  -P ${CMAKE_CURRENT_SOURCE_DIR}/test_version.cmake)
set_tests_properties(test_version PROPERTIES LABELS common TIMEOUT 60)
# Files written through a directory held open: planted links, refused
# directories, the manifest and what may be removed.
mp_add_test(test_file LIBS mp_common SOURCES test_file.c LABELS "common;hardening")
# The quoting functions: known answers, truncation, gnuplot reading them back.
mp_add_test(test_quote LIBS mp_common SOURCES test_quote.c LABELS "common;hardening")
# Strict JSON parsing (one document, no key twice) and bounded echo of user values.
mp_add_test(test_json_strict LIBS mp_common SOURCES test_json_strict.c LABELS "common;hardening")
# Reading a file muxprof did not write: regular files only, never blocking, size limits.
mp_add_test(test_input LIBS mp_common SOURCES test_input.c LABELS hardening)
# bench/overhead.h: bench_sweep's overhead check from the repeats (median ratio, interval).
mp_add_test(test_bench_overhead LIBS mp_common SOURCES test_bench_overhead.c LABELS common)
