# SPDX-License-Identifier: MIT
# Tests of src/backends/: every backend on real descriptors, and the ones
# the kernel may lack as one program, one test per backend (77 = lacks it).
mp_add_test(test_backends LIBS mp_run SOURCES test_backends.c LABELS run)
mp_add_test(test_epoll_enospc LIBS mp_backends SOURCES test_epoll_enospc.c LABELS run)
mp_add_test(test_backend_io_uring LIBS mp_run SOURCES test_backend_optional.c ARGS io_uring
  LABELS run
  NATIVE_ONLY "qemu-user emulates neither io_uring nor epoll_pwait2")
if(CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_backend_epoll_pwait2 COMMAND sh -c "echo SKIP: not run under qemu-user; exit 77")
else()
  add_test(NAME test_backend_epoll_pwait2 COMMAND test_backend_io_uring epoll-pwait2)
endif()
set_tests_properties(test_backend_epoll_pwait2 PROPERTIES SKIP_RETURN_CODE 77 LABELS run)
