# SPDX-License-Identifier: MIT
# Tests of src/cmd/: the run options table, and usage errors of the binary.
mp_add_test(test_cli LIBS mp_cmd SOURCES test_cli.c LABELS run)
# The option tables: their parser and --help, and every verb's table against
# its --help, the manual page and the completion.
mp_add_test(test_opts LIBS mp_cmd SOURCES test_opts.c LABELS cmd)
# `muxprof events`: each software counter a plan adds named once, opened or not.
mp_add_test(test_events_out LIBS mp_cmd SOURCES test_events_out.c LABELS cmd)
# muxprof loop end to end: answers, K more calls for K more (strace), usage errors.
mp_add_test(test_loop LIBS mp_backends SOURCES test_loop.c LABELS run integration)
if(CMAKE_CROSSCOMPILING_EMULATOR)
  target_compile_definitions(test_loop PRIVATE MP_TEST_EMULATED=1)
endif()
# run/report/compare --anonymize end to end: no host name, user name, home
# path or kernel address in any output, the data unchanged field by field, and
# outputs that do not depend on the host name (host names q, poll, Intel, epoll,
# 1); UTS namespaces, exits 77 without them or without python3.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_anonymize_cli
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_anonymize_cli.sh $<TARGET_FILE:muxprof>)
  set_tests_properties(test_anonymize_cli PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
    LABELS "privacy;hardening")
endif()
mp_add_test(test_cli_exit LIBS mp_run SOURCES test_cli_exit.c LABELS run integration TIMEOUT 300
            NATIVE_ONLY "starts many runs of the binary")
# cmake --install into a scratch prefix: binary, manual page, bash completion.
if(CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_install COMMAND sh -c "echo 'SKIP: the installed binary is for another arch'; exit 77")
else()
  add_test(NAME test_install COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_install.sh
           ${CMAKE_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR}/install-test)
endif()
set_tests_properties(test_install PROPERTIES LABELS cmd TIMEOUT 120 SKIP_RETURN_CODE 77)
# The directories run, report and compare write into, set up by an attacker:
# planted links, another user's directory, a figures/ link, parallel runs
# (root; a throw-away second user; exits 77 otherwise).
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_out_dirs
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_out_dirs.sh $<TARGET_FILE:muxprof>
                   ${CMAKE_CURRENT_SOURCE_DIR}/fixtures)
  set_tests_properties(test_out_dirs PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
    LABELS "hardening;cmd")
endif()
# Each option once in every verb; a user's value echoed only up to a bound.
add_test(NAME test_cli_once
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_cli_once.sh ${MP_TEST_BIN_PATH})
set_tests_properties(test_cli_once PROPERTIES LABELS "cmd;hardening" TIMEOUT 60)
