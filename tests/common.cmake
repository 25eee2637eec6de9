# Tests of src/common/.
mp_add_test(test_stats SOURCES test_stats.c LABELS run)
# --anonymize: what is replaced and what is kept.
mp_add_test(test_anonymize SOURCES test_anonymize.c LABELS privacy)
# The version, taken at build time (cmake/version.cmake).
add_test(NAME test_version COMMAND ${CMAKE_COMMAND} -DSCRIPT=${CMAKE_SOURCE_DIR}/cmake/version.cmake
  -DWORK=${CMAKE_CURRENT_BINARY_DIR}/version-test -DBIN=${MP_TEST_BIN_PATH}
  -DBUILT=${CMAKE_BINARY_DIR}/version.c -DRELEASE=${PROJECT_VERSION}
  -P ${CMAKE_CURRENT_SOURCE_DIR}/test_version.cmake)
set_tests_properties(test_version PROPERTIES LABELS common TIMEOUT 60)
# Reading a file muxprof did not write: regular files only, never blocking, size limits.
mp_add_test(test_input SOURCES test_input.c LABELS hardening)
