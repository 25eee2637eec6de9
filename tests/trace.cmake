# SPDX-License-Identifier: MIT
# Tests of src/trace/ (`muxprof trace`).  Where the build has trace: a program
# of known wait calls traced (started and attached to), N checked per call
# (poll, select, epoll through epoll_ctl add/mod/del and a dup'ed epoll fd),
# a target that exits inside the window, a command outliving --duration, the
# refusals (no privilege, no such pid, a command that cannot run); root only
# (77 otherwise).  Without trace: the one-line refusal naming what is missing.
add_executable(trace_target trace_target.c)
target_link_libraries(trace_target PRIVATE Threads::Threads)
get_property(mp_trace_built GLOBAL PROPERTY MP_TRACE_BUILT)
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_trace COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_trace.sh
           $<TARGET_FILE:muxprof> $<TARGET_FILE:trace_target> ${mp_trace_built})
  set_tests_properties(test_trace PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 240
    LABELS "trace;integration")
endif()
