# Tests of src/cmd/: the run options table, and usage errors of the binary.
mp_add_test(test_cli SOURCES test_cli.c LABELS run)
mp_add_test(test_cli_exit SOURCES test_cli_exit.c LABELS run integration TIMEOUT 300
            NATIVE_ONLY "starts many runs of the binary")
# cmake --install into a scratch prefix: binary, manual page, bash completion.
if(CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_install COMMAND sh -c "echo 'SKIP: the installed binary is for another arch'; exit 77")
else()
  add_test(NAME test_install COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_install.sh
           ${CMAKE_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR}/install-test)
endif()
set_tests_properties(test_install PROPERTIES LABELS cmd TIMEOUT 120 SKIP_RETURN_CODE 77)
