# Tests of sim/: the cache and TLB model fed synthetic traces, the geometry
# files; the QEMU plugin under qemu-user with the arm64 loop's markers.
mp_add_test(test_sim_model SOURCES test_sim_model.c LIBS mp_sim LABELS "sim;cachesim")
target_compile_definitions(test_sim_model PRIVATE
  MP_SIM_GEOMETRIES="${CMAKE_SOURCE_DIR}/sim/geometries")
