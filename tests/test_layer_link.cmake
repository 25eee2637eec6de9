# SPDX-License-Identifier: MIT
# test_layer_link.cmake - cmake/layer.cmake's check on a scratch project of two
# folders, low/ and high/ (high uses low): a call from high down to low builds;
# a call from low up to high builds both libraries but not mp_low_links, and
# the linker names the symbol.
#   cmake -DLAYER=cmake/layer.cmake -DWORK=dir -DCC=compiler -P test_layer_link.cmake
function(project_with low_c)
  file(REMOVE_RECURSE ${WORK})
  file(WRITE ${WORK}/src/CMakeLists.txt "cmake_minimum_required(VERSION 3.16)
project(layer_link C)
include(${LAYER})
mp_layer(low SOURCES low.c)
mp_layer(high USES low SOURCES high.c)
")
  file(WRITE ${WORK}/src/low.c "${low_c}")
  file(WRITE ${WORK}/src/high.c "int low(void);\nint high(void) { return low() + 1; }\n")
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${WORK}/src -B ${WORK}/build
                          -DCMAKE_C_COMPILER=${CC}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "configuring the scratch project failed:\n${out}")
  endif()
endfunction()

function(build target expect)
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/build --target ${target}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(expect STREQUAL "builds" AND NOT rc EQUAL 0)
    message(FATAL_ERROR "${target} did not build:\n${out}")
  elseif(expect STREQUAL "fails" AND rc EQUAL 0)
    message(FATAL_ERROR "${target} built although low/ calls high/:\n${out}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

project_with("int low(void) { return 1; }\n")
build(mp_high_links builds)
build(mp_low_links builds)

project_with("int high(void);\nint low(void) { return high(); }\n")
build(mp_low builds)
build(mp_high builds)
build(mp_high_links builds)
build(mp_low_links fails)
if(NOT out MATCHES "undefined (reference to|symbol:) [`']?high")
  message(FATAL_ERROR "mp_low_links failed, but not on the upward call:\n${out}")
endif()
file(REMOVE_RECURSE ${WORK})
