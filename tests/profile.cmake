# SPDX-License-Identifier: MIT
# Tests of kernel attribution (`muxprof run --profile`).
mp_add_test(test_profile_ringbuf LIBS mp_pmu SOURCES test_profile_ringbuf.c LABELS profile)
mp_add_test(test_profile_symbols LIBS mp_pmu SOURCES test_profile_symbols.c LABELS profile)
mp_add_test(test_profile_json LIBS mp_run SOURCES test_profile_json.c LABELS profile)
mp_add_test(test_profile_host LIBS mp_pmu SOURCES test_profile_host.c LABELS profile integration hardening
  TIMEOUT 300)
