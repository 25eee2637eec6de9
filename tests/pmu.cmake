# Tests of pmu/ (label pmu).  A test that needs what this host lacks exits 77.
set(MP_PMU_TEST_INC ${CMAKE_SOURCE_DIR}/pmu)
mp_add_test(test_pmu_counters SOURCES test_pmu_counters.c LABELS pmu
  NATIVE_ONLY "perf_event_open gives ENOSYS under qemu-user")
target_include_directories(test_pmu_counters PRIVATE ${MP_PMU_TEST_INC})
mp_add_test(test_pmu_rdpmc SOURCES test_pmu_rdpmc.c LABELS pmu)
mp_add_test(test_pmu_errors SOURCES test_pmu_errors.c LABELS pmu)
mp_add_test(test_pmu_sysfs SOURCES test_pmu_sysfs.c LABELS pmu)
target_include_directories(test_pmu_sysfs PRIVATE ${MP_PMU_TEST_INC})
mp_add_test(test_pmu_hw SOURCES test_pmu_hw.c LABELS pmu)
target_include_directories(test_pmu_hw PRIVATE ${MP_PMU_TEST_INC})
# Encoding tables: one run per forced PMU model, plus generic names and the
# syntax of every embedded preset data file.
mp_add_test(test_pmu_encode SOURCES test_pmu_encode.c LABELS pmu ARGS files)
target_include_directories(test_pmu_encode PRIVATE ${MP_PMU_TEST_INC})
foreach(m generic skl icl spr amd64_fam17h_zen2 amd64_fam19h_zen3 amd64_fam19h_zen4)
  add_test(NAME test_pmu_encode_${m} COMMAND test_pmu_encode ${m})
  set_tests_properties(test_pmu_encode_${m} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60
    LABELS pmu)
endforeach()
# Arm models: forced only in an arm64 build of libpfm4 (elsewhere they skip,
# 77); arm_cortex_a7x has no libpfm4 model (chosen by MIDR part) and checks its
# data file's raw events on any host.
foreach(m arm_n1 arm_n2 arm_v1 arm_v2 arm_cortex_a7x)
  add_test(NAME test_pmu_encode_${m} COMMAND test_pmu_encode ${m})
  set_tests_properties(test_pmu_encode_${m} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60
    LABELS pmu)
endforeach()
mp_add_test(test_pmu_pack SOURCES test_pmu_pack.c LABELS pmu)
target_include_directories(test_pmu_pack PRIVATE ${MP_PMU_TEST_INC})
mp_add_test(test_pmu_cli SOURCES test_pmu_cli.c LABELS pmu
  NATIVE_ONLY "perf_event_open gives ENOSYS under qemu-user, so no event opens")
add_dependencies(test_pmu_cli muxprof)
# The architected ARMv8 events against a fake sysfs tree (any host).
mp_add_test(test_pmu_armv8 SOURCES test_pmu_armv8.c LABELS pmu)
target_include_directories(test_pmu_armv8 PRIVATE ${MP_PMU_TEST_INC})
