# Tests of src/run/: whole runs through the binary.
mp_add_test(test_run SOURCES test_run.c LABELS run integration TIMEOUT 300
  NATIVE_ONLY "fork() of the descriptor helper can deadlock the child under qemu-user; timings mean nothing there")
mp_add_test(test_bias SOURCES test_bias.c LABELS run integration TIMEOUT 300
  NATIVE_ONLY "fork() of the helpers can deadlock the child under qemu-user; /proc task states of an emulated process are qemu's")
mp_add_test(test_bias_unprivileged SOURCES test_bias.c ARGS unprivileged LABELS run integration
  TIMEOUT 300 NATIVE_ONLY "fork() of the helpers can deadlock the child under qemu-user")
