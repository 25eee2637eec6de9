# Tests of src/run/: whole runs through the binary.
mp_add_test(test_run SOURCES test_run.c LABELS run integration TIMEOUT 300
  NATIVE_ONLY "fork() of the descriptor helper can deadlock the child under qemu-user; timings mean nothing there")
