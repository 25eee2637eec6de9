# SPDX-License-Identifier: MIT
# Tests of sim/: the cache and TLB model fed synthetic traces, the geometry
# files; the QEMU plugin under qemu-user with the arm64 loop's markers.
mp_add_test(test_sim_model SOURCES test_sim_model.c LIBS mp_sim LABELS sim)
target_compile_definitions(test_sim_model PRIVATE
  MP_SIM_GEOMETRIES="${CMAKE_SOURCE_DIR}/sim/geometries")
if(TARGET muxsim)
  add_test(NAME test_sim_plugin COMMAND sh ${CMAKE_SOURCE_DIR}/tests/test_sim_plugin.sh
           $<TARGET_FILE:muxsim> ${CMAKE_SOURCE_DIR}/build-aarch64/bin/muxprof
           ${CMAKE_SOURCE_DIR}/sim/geometries $<TARGET_FILE:muxprof>)
elseif(MUXPROF_SANITIZE)
  add_test(NAME test_sim_plugin COMMAND sh -c
           "echo 'SKIP: a sanitized build makes no QEMU plugin (QEMU cannot load one)'; exit 77")
else()
  add_test(NAME test_sim_plugin COMMAND sh -c
           "echo 'SKIP: no qemu-plugin.h found: scripts/muxsim.sh fetches it (or give -DMP_QEMU_PLUGIN_INCLUDE=DIR)'; exit 77")
endif()
set_tests_properties(test_sim_plugin PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
                     LABELS sim)
# scripts/muxsim.sh without booting: usage errors, and its readers on a recorded run.
find_program(MP_PYTHON3 python3)
if(MP_PYTHON3 AND NOT CMAKE_CROSSCOMPILING)
  add_test(NAME test_muxsim COMMAND sh ${CMAKE_SOURCE_DIR}/tests/test_muxsim.sh ${CMAKE_SOURCE_DIR}
           $<TARGET_FILE:muxprof>)
  set_tests_properties(test_muxsim PROPERTIES LABELS sim TIMEOUT 120)
endif()
# The report's findings on the simulated LLC, on a recorded run of the model.
if(MP_PYTHON3 AND NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_sim_findings COMMAND sh ${CMAKE_SOURCE_DIR}/tests/test_sim_findings.sh
           ${CMAKE_SOURCE_DIR} $<TARGET_FILE:muxprof>)
  set_tests_properties(test_sim_findings PROPERTIES LABELS "sim;report" TIMEOUT 120)
endif()
# The arm64 guest's /init set-up (loopback, port range, descriptor limits) without booting.
add_test(NAME test_guest_setup COMMAND sh ${CMAKE_SOURCE_DIR}/tests/test_guest_setup.sh
         ${CMAKE_SOURCE_DIR})
set_tests_properties(test_guest_setup PROPERTIES LABELS sim SKIP_RETURN_CODE 77 TIMEOUT 60)
# The guest library's per-ISA variables, /init and qemu command line (arm64, x86_64) without booting.
add_test(NAME test_guest_arch COMMAND bash ${CMAKE_SOURCE_DIR}/tests/test_guest_arch.sh
         ${CMAKE_SOURCE_DIR})
set_tests_properties(test_guest_arch PROPERTIES LABELS sim SKIP_RETURN_CODE 77 TIMEOUT 60)
