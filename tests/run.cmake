# Tests of src/run/: the descriptor helper, whole runs through the binary.
mp_add_test(test_peer SOURCES test_peer.c LABELS run)
mp_add_test(test_run SOURCES test_run.c LABELS run integration TIMEOUT 300)
mp_add_test(test_bias SOURCES test_bias.c LABELS run integration TIMEOUT 300
  NATIVE_ONLY "/proc task states and timings of an emulated process are qemu's")
mp_add_test(test_bias_unprivileged SOURCES test_bias.c ARGS unprivileged LABELS run integration
  TIMEOUT 300 NATIVE_ONLY "perf_event_open gives ENOSYS under qemu-user")
