# Tests of kernel attribution (`muxprof run --profile`).
mp_add_test(test_profile_ringbuf SOURCES test_profile_ringbuf.c LABELS profile)
mp_add_test(test_profile_symbols SOURCES test_profile_symbols.c LABELS profile)
mp_add_test(test_profile_host SOURCES test_profile_host.c LABELS profile integration
  TIMEOUT 300)
