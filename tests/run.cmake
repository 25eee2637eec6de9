# Tests of the run verb.
mp_add_test(test_stats SOURCES test_stats.c LABELS run)
mp_add_test(test_cli SOURCES test_cli.c LABELS run)
mp_add_test(test_backends SOURCES test_backends.c LABELS run)
mp_add_test(test_run SOURCES test_run.c LABELS run integration TIMEOUT 300)
# Backends the kernel may lack: one program, one test per backend (77 = lacks it).
mp_add_test(test_backend_io_uring SOURCES test_backend_optional.c ARGS io_uring LABELS run)
add_test(NAME test_backend_epoll_pwait2 COMMAND test_backend_io_uring epoll-pwait2)
set_tests_properties(test_backend_epoll_pwait2 PROPERTIES SKIP_RETURN_CODE 77 LABELS run)
mp_add_test(test_experiments SOURCES test_experiments.c LABELS run)
