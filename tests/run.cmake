# Tests of the run verb.
mp_add_test(test_stats SOURCES test_stats.c LABELS run)
mp_add_test(test_cli SOURCES test_cli.c LABELS run)
mp_add_test(test_backends SOURCES test_backends.c LABELS run)
mp_add_test(test_peer SOURCES test_peer.c LABELS run)
mp_add_test(test_run SOURCES test_run.c LABELS run integration TIMEOUT 300)
# Backends the kernel may lack: one program, one test per backend (77 = lacks it).
mp_add_test(test_backend_io_uring SOURCES test_backend_optional.c ARGS io_uring LABELS run
  NATIVE_ONLY "qemu-user emulates neither io_uring nor epoll_pwait2")
if(CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_backend_epoll_pwait2 COMMAND sh -c "echo SKIP: not run under qemu-user; exit 77")
else()
  add_test(NAME test_backend_epoll_pwait2 COMMAND test_backend_io_uring epoll-pwait2)
endif()
set_tests_properties(test_backend_epoll_pwait2 PROPERTIES SKIP_RETURN_CODE 77 LABELS run)
mp_add_test(test_experiments SOURCES test_experiments.c LABELS run
  NATIVE_ONLY "thread wakeups and /proc task states of an emulated process are qemu's, not the program's")
mp_add_test(test_loop SOURCES test_loop.c LABELS run integration
  NATIVE_ONLY "fork() of the descriptor helper can deadlock the child under qemu-user")
