# SPDX-License-Identifier: MIT
# Tests of topology/ (owned by the topology area).  test_topology uses
# synthetic topologies and XML fixtures only; test_topology_bind binds a
# thread on this host and skips (77) where binding is impossible.
mp_add_test(test_topology LIBS mp_cmd SOURCES test_topology.c LABELS topology)
mp_add_test(test_topology_bind SOURCES test_topology_bind.c LIBS mp_topology Threads::Threads
            LABELS topology TIMEOUT 30
  NATIVE_ONLY "thread binding and sched_getcpu of an emulated thread are not checkable")
# topology --synthetic past its limits (objects under one parent, PUs): refused, not built.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_topology_limits
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_topology_limits.sh $<TARGET_FILE:muxprof>)
  set_tests_properties(test_topology_limits PROPERTIES LABELS "topology;hardening" TIMEOUT 900)
endif()
# topology --geometry: an XML export's caches as a geometry file of the model (sim/).
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_topology_geometry
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_topology_geometry.sh $<TARGET_FILE:muxprof>
           ${CMAKE_CURRENT_SOURCE_DIR}/fixtures/topology)
  set_tests_properties(test_topology_geometry PROPERTIES LABELS "topology;sim" TIMEOUT 60)
endif()
