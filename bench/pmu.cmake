# SPDX-License-Identifier: MIT
# Benchmarks of pmu/: cost of one empty counter read bracket per read path.
# Build: cmake --build BUILD --target bench; run BUILD/bench/bench_pmu_read
add_executable(bench_pmu_read EXCLUDE_FROM_ALL ${CMAKE_CURRENT_SOURCE_DIR}/bench_pmu_read.c)
target_link_libraries(bench_pmu_read PRIVATE mp_pmu)
add_dependencies(bench bench_pmu_read)
