# SPDX-License-Identifier: MIT
# mp_layer(NAME [USES folder...] [LIBS lib...] [PRIVATE_LIBS lib...] SOURCES file...)
#
# One folder of the tree as the static library mp_NAME, linked to the libraries
# of the folders it USES (the folders below it, docs/ARCHITECTURE.md) and to the
# outside libraries LIBS (its users need them too) and PRIVATE_LIBS.
#
# A static library links nothing by itself, so each also gets mp_NAME_links, a
# program made of every object of mp_NAME (cmake/layer_check.c is its main) and
# linked only with what mp_NAME links: a call into a folder NAME does not use (an
# upward call) is an undefined reference there, and the build fails.
#
# The folders and what each uses are kept in the global property MP_LAYERS
# ("NAME:folder folder ..."), the table tests/test_layers.c checks includes by.
set(MP_LAYER_CHECK_MAIN ${CMAKE_CURRENT_LIST_DIR}/layer_check.c)
function(mp_layer name)
  cmake_parse_arguments(L "" "" "USES;LIBS;PRIVATE_LIBS;SOURCES" ${ARGN})
  set(uses "")
  foreach(folder IN LISTS L_USES)
    list(APPEND uses mp_${folder})
  endforeach()
  add_library(mp_${name} STATIC ${L_SOURCES})
  target_link_libraries(mp_${name} PUBLIC ${uses} ${L_LIBS} PRIVATE ${L_PRIVATE_LIBS})
  add_executable(mp_${name}_links ${MP_LAYER_CHECK_MAIN} $<TARGET_OBJECTS:mp_${name}>)
  target_link_libraries(mp_${name}_links PRIVATE mp_${name})
  mp_layer_uses(${name} ${L_USES})
endfunction()

# The row of MP_LAYERS for a folder that is no library (src/main.c: "main").
function(mp_layer_uses name)
  string(REPLACE ";" " " row "${ARGN}")
  set_property(GLOBAL APPEND PROPERTY MP_LAYERS "${name}:${row}")
endfunction()
