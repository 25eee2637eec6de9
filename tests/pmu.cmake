# SPDX-License-Identifier: MIT
# Tests of pmu/ (label pmu).  A test that needs what this host lacks exits 77.
mp_add_test(test_pmu_counters LIBS mp_pmu SOURCES test_pmu_counters.c LABELS pmu
  NATIVE_ONLY "perf_event_open gives ENOSYS under qemu-user")
mp_add_test(test_pmu_rdpmc LIBS mp_pmu SOURCES test_pmu_rdpmc.c LABELS pmu)
mp_add_test(test_pmu_errors LIBS mp_pmu SOURCES test_pmu_errors.c LABELS pmu)
mp_add_test(test_pmu_sysfs LIBS mp_pmu SOURCES test_pmu_sysfs.c LABELS pmu)
mp_add_test(test_pmu_hw LIBS mp_pmu SOURCES test_pmu_hw.c LABELS pmu)
# Encoding tables: one run per forced PMU model, plus generic names and the
# syntax of every embedded preset data file.
mp_add_test(test_pmu_encode LIBS mp_pmu SOURCES test_pmu_encode.c LABELS pmu ARGS files)
foreach(m generic skl icl spr amd64_fam17h_zen2 amd64_fam19h_zen3 amd64_fam19h_zen4)
  add_test(NAME test_pmu_encode_${m} COMMAND test_pmu_encode ${m})
  set_tests_properties(test_pmu_encode_${m} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60
    LABELS pmu)
endforeach()
set_tests_properties(test_pmu_encode_amd64_fam19h_zen3 test_pmu_encode_amd64_fam19h_zen4
  PROPERTIES ENVIRONMENT MUXPROF_SYSFS_PMUS=${CMAKE_CURRENT_SOURCE_DIR}/fixtures/sysfs_amd/zen3)
set_tests_properties(test_pmu_encode_amd64_fam17h_zen2
  PROPERTIES ENVIRONMENT MUXPROF_SYSFS_PMUS=${CMAKE_CURRENT_SOURCE_DIR}/fixtures/sysfs_amd/zen2)
# Arm models: forced only in an arm64 build of libpfm4 (elsewhere they skip,
# 77); arm_cortex_a7x has no libpfm4 model (chosen by MIDR part) and checks its
# data file's raw events on any host.
foreach(m arm_n1 arm_n2 arm_v1 arm_v2 arm_cortex_a7x)
  add_test(NAME test_pmu_encode_${m} COMMAND test_pmu_encode ${m})
  set_tests_properties(test_pmu_encode_${m} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60
    LABELS pmu)
endforeach()
mp_add_test(test_pmu_pack LIBS mp_pmu SOURCES test_pmu_pack.c LABELS pmu)
mp_add_test(test_pmu_cli LIBS mp_pmu SOURCES test_pmu_cli.c LABELS pmu
  NATIVE_ONLY "perf_event_open gives ENOSYS under qemu-user, so no event opens")
add_dependencies(test_pmu_cli muxprof)
mp_add_test(test_pmu_privilege LIBS mp_pmu SOURCES test_pmu_privilege.c LABELS pmu)
# scripts/grant-perfmon.sh end to end (root only: throw-away users and group,
# a copy of the binary; exits 77 elsewhere), and the attacks it refuses
# (symbolic links, files that are not muxprof, directories others can write,
# --revoke without a record).  Serial: it sets kernel.perf_event_paranoid for
# its duration.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_grant_perfmon
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_grant_perfmon.sh $<TARGET_FILE:muxprof>
                   ${CMAKE_SOURCE_DIR}/scripts/grant-perfmon.sh ${CMAKE_BINARY_DIR})
  set_tests_properties(test_grant_perfmon PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 180
    RUN_SERIAL TRUE LABELS "pmu;privilege;hardening")
endif()
# Uncore-like PMUs (a sysfs cpumask) open only with CPU-wide privilege (root
# only: a mount namespace gives the msr PMU a cpumask; exits 77 elsewhere).
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_cpu_wide_gate
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_cpu_wide_gate.sh $<TARGET_FILE:muxprof>)
  set_tests_properties(test_cpu_wide_gate PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60
    RUN_SERIAL TRUE LABELS "pmu;privilege;hardening")
endif()
# The architected ARMv8 events against a fake sysfs tree (any host).
mp_add_test(test_pmu_armv8 LIBS mp_pmu SOURCES test_pmu_armv8.c LABELS pmu)
# CPU-wide events filtered to the measured thread (amd_l3) against fake sysfs
# trees, and the CPU-wide open/read path through the kernel's msr PMU.
mp_add_test(test_pmu_l3 LIBS mp_pmu SOURCES test_pmu_l3.c LABELS pmu
  ARGS ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/sysfs_amd)
target_link_libraries(test_pmu_l3 PRIVATE PFM::pfm)
