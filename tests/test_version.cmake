# SPDX-License-Identifier: MIT
# test_version.cmake - the version is taken when the build runs: in a
# scratch git repository, cmake/version.cmake writes the release and the
# describe, marks an edited tree dirty, follows a commit, and leaves the
# file alone when nothing changed (so a build relinks nothing); the binary
# prints what the generated file of its build says.
#   cmake -DSCRIPT=cmake/version.cmake -DWORK=dir -DBIN=muxprof
#         -DBUILT=build/version.c -DRELEASE=x.y.z -P test_version.cmake
find_package(Git REQUIRED)
function(check what text pattern)
  if(NOT text MATCHES "${pattern}")
    message(FATAL_ERROR "${what}: '${pattern}' not found in:\n${text}")
  endif()
endfunction()
function(git)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${WORK}/repo -c user.name=t -c user.email=t@t
                  ${ARGN} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "git ${ARGN}: ${err}")
  endif()
endfunction()
function(gen out)
  execute_process(COMMAND ${CMAKE_COMMAND} -DSRC=${WORK}/repo -DOUT=${WORK}/version.c
                  -DRELEASE=9.8.7 -P ${SCRIPT} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "version.cmake failed")
  endif()
  file(READ ${WORK}/version.c text)
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/repo)
git(init -q)
file(WRITE ${WORK}/repo/a.c "int a;\n")
git(add a.c)
git(commit -q -m one)
git(tag v9.8.7)

gen(t)
check("tagged" "${t}" "mp_version_release\\(void\\) { return \"9\\.8\\.7\"; }")
check("tagged" "${t}" "mp_version_git\\(void\\) { return \"v9\\.8\\.7\"; }")

file(TIMESTAMP ${WORK}/version.c before "%s")
execute_process(COMMAND ${CMAKE_COMMAND} -E sleep 1.1)
gen(t)
file(TIMESTAMP ${WORK}/version.c after "%s")
if(NOT before STREQUAL after)
  message(FATAL_ERROR "version.c rewritten although nothing changed")
endif()

file(APPEND ${WORK}/repo/a.c "int b;\n")
gen(t)
check("edited" "${t}" "return \"v9\\.8\\.7-dirty\"")

git(commit -q -a -m two)
gen(t)
check("committed" "${t}" "return \"v9\\.8\\.7-1-g[0-9a-f]+\"")
if(t MATCHES "dirty")
  message(FATAL_ERROR "committed tree marked dirty:\n${t}")
endif()

# Not a git checkout: said so, not an empty string.
file(REMOVE_RECURSE ${WORK}/repo/.git)
gen(t)
check("no git" "${t}" "return \"unknown \\(not built from a git checkout\\)\"")

# The binary says what its build generated.
file(READ ${BUILT} built)
string(REGEX MATCH "mp_version_git\\(void\\) { return \"([^\"]*)\"" m "${built}")
set(describe "${CMAKE_MATCH_1}")
execute_process(COMMAND ${BIN} --version OUTPUT_VARIABLE v RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT v STREQUAL "muxprof ${RELEASE} (git ${describe})\n")
  message(FATAL_ERROR "muxprof --version said '${v}' (exit ${rc}); the build generated "
                      "release ${RELEASE}, describe '${describe}'")
endif()
file(REMOVE_RECURSE ${WORK})
