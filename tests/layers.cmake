# SPDX-License-Identifier: MIT
# The layering of src/ (docs/ARCHITECTURE.md): no folder includes one above
# it, no include circle.  Reads the sources, so it runs the same everywhere.
# The folders and what each may use are those the libraries link (MP_LAYERS,
# cmake/layer.cmake), written as the rows of the test's table.
get_property(mp_layers GLOBAL PROPERTY MP_LAYERS)
set(rows "")
foreach(layer IN LISTS mp_layers)
  string(REGEX REPLACE "^([^:]*):(.*)$" "    {\"\\1\", \"\\2\"},\n" row "${layer}")
  string(APPEND rows "${row}")
endforeach()
file(GENERATE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/layers_table.h CONTENT "${rows}")
mp_add_test(test_layers SOURCES test_layers.c LABELS layout)
target_compile_definitions(test_layers PRIVATE MP_TEST_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
target_include_directories(test_layers PRIVATE ${CMAKE_CURRENT_BINARY_DIR})
# The link check itself (cmake/layer.cmake) on a scratch project: an upward
# call fails to link, a downward one does not.
add_test(NAME test_layer_link COMMAND ${CMAKE_COMMAND} -DLAYER=${CMAKE_SOURCE_DIR}/cmake/layer.cmake
  -DWORK=${CMAKE_CURRENT_BINARY_DIR}/layer-link-test -DCC=${CMAKE_C_COMPILER}
  -P ${CMAKE_CURRENT_SOURCE_DIR}/test_layer_link.cmake)
set_tests_properties(test_layer_link PROPERTIES LABELS layout TIMEOUT 120)
# Each folder's README.md and docs/ARCHITECTURE.md's folder table, checked
# against the same rows.
string(REPLACE ";" "|" mp_layer_rows "${mp_layers}")
add_test(NAME test_folder_docs COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_folder_docs.sh
  ${CMAKE_SOURCE_DIR} "${mp_layer_rows}")
set_tests_properties(test_folder_docs PROPERTIES LABELS layout TIMEOUT 60)
# The committed fixtures against what their generators write.
add_test(NAME test_fixture_generators COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_fixture_generators.sh
  ${CMAKE_SOURCE_DIR})
set_tests_properties(test_fixture_generators PROPERTIES LABELS layout TIMEOUT 60 SKIP_RETURN_CODE 77)
