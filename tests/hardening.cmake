# SPDX-License-Identifier: MIT
# Hardening: descriptor/process census, hostile results.json,
# replay of the fuzz corpora and regression inputs (results.json, compare,
# the run CLI, journal.jsonl, a muxsim.sh run directory).  Label: hardening.
# The libFuzzer binaries themselves are built only with clang and
# -DMUXPROF_FUZZ=ON (scripts/ci-hardening.sh does that in build-fuzz).
mp_add_test(test_census LIBS mp_cmd SOURCES test_census.c LABELS hardening integration TIMEOUT 600)
# Nothing measured lost: runs stopped by SIGHUP, SIGQUIT, two signals,
# SIGKILL (then recovered from the journal), a reader of stdout that left,
# a final write that fails; journals that are not a run's.
mp_add_test(test_journal LIBS PkgConfig::CJSON SOURCES test_journal.c
  LABELS hardening integration TIMEOUT 1800
  NATIVE_ONLY "it sends signals to real runs and reads their timing")
mp_add_test(test_hostile LIBS PkgConfig::CJSON SOURCES test_hostile.c LABELS hardening TIMEOUT 600
  NATIVE_ONLY "it starts muxprof about 1,150 times: hours under qemu-user, and the same code is checked natively")

set(MP_FUZZ_DIR ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
mp_add_test(test_fuzz_json_replay LIBS mp_report SOURCES fuzz/fuzz_json.c fuzz/replay_main.c
  LABELS hardening ARGS ${MP_FUZZ_DIR}/corpus_json ${MP_FUZZ_DIR}/regress/json)
mp_add_test(test_fuzz_cli_replay LIBS mp_cmd SOURCES fuzz/fuzz_cli.c fuzz/replay_main.c
  LABELS hardening ARGS ${MP_FUZZ_DIR}/corpus_cli ${MP_FUZZ_DIR}/regress/cli)
mp_add_test(test_fuzz_compare_replay LIBS mp_compare SOURCES fuzz/fuzz_compare.c fuzz/replay_main.c
  LABELS hardening ARGS ${MP_FUZZ_DIR}/corpus_json ${MP_FUZZ_DIR}/regress/compare)
target_compile_definitions(test_fuzz_compare_replay PRIVATE
  MP_FUZZ_SECOND_HOST="${MP_FUZZ_DIR}/corpus_json/valid_small.json")
mp_add_test(test_fuzz_journal_replay LIBS mp_run mp_report
  SOURCES fuzz/fuzz_journal.c fuzz/replay_main.c
  LABELS hardening ARGS ${MP_FUZZ_DIR}/corpus_journal ${MP_FUZZ_DIR}/regress/journal)
mp_add_test(test_fuzz_simimport_replay LIBS mp_run mp_report
  SOURCES fuzz/fuzz_simimport.c fuzz/replay_main.c
  LABELS hardening ARGS ${MP_FUZZ_DIR}/corpus_simimport ${MP_FUZZ_DIR}/regress/simimport)

option(MUXPROF_FUZZ "Build the libFuzzer targets (clang only)" OFF)
if(MUXPROF_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "MUXPROF_FUZZ needs clang (CC=clang), not ${CMAKE_C_COMPILER_ID}")
  endif()
  # The whole tree is compiled with -fsanitize=fuzzer-no-link (CMAKE_C_FLAGS,
  # see scripts/ci-hardening.sh); only these link the libFuzzer main.
  set(MP_FUZZ_LIB_json mp_report)
  set(MP_FUZZ_LIB_cli mp_cmd)
  set(MP_FUZZ_LIB_compare mp_compare)
  set(MP_FUZZ_LIB_journal mp_run mp_report)
  set(MP_FUZZ_LIB_simimport mp_run mp_report)
  foreach(t json cli compare journal simimport)
    add_executable(fuzz_${t} fuzz/fuzz_${t}.c)
    target_link_libraries(fuzz_${t} PRIVATE ${MP_FUZZ_LIB_${t}})
    target_link_options(fuzz_${t} PRIVATE -fsanitize=fuzzer)
    set_target_properties(fuzz_${t} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
  endforeach()
  target_compile_definitions(fuzz_compare PRIVATE
    MP_FUZZ_SECOND_HOST="${MP_FUZZ_DIR}/corpus_json/valid_small.json")
endif()
# Inputs that are not regular files (FIFO, directory, device) for topology --xml, compare's
# samples.csv and report's results.json: refused, never waited on.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_nonregular_inputs
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_nonregular_inputs.sh $<TARGET_FILE:muxprof>
                   ${CMAKE_CURRENT_SOURCE_DIR}/fixtures ${CMAKE_CURRENT_BINARY_DIR}/nonregular-test)
  set_tests_properties(test_nonregular_inputs PROPERTIES LABELS hardening TIMEOUT 120)
endif()

# A bare reference name is the built-in dataset, never a local directory of that name.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_reference_names
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_reference_names.sh $<TARGET_FILE:muxprof>
                   ${CMAKE_SOURCE_DIR})
  set_tests_properties(test_reference_names PROPERTIES LABELS hardening TIMEOUT 120)
endif()

# run --force over a directory with a journal: refused while a run writes it
# or before it was recovered; the journal is never lost.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_run_force_journal
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_run_force_journal.sh $<TARGET_FILE:muxprof>)
  set_tests_properties(test_run_force_journal PROPERTIES LABELS hardening TIMEOUT 300)
endif()

# Every JSON document printed is valid UTF-8, whatever bytes its strings came from.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_json_utf8
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/test_json_utf8.sh $<TARGET_FILE:muxprof>
                   ${CMAKE_CURRENT_SOURCE_DIR}/fixtures)
  set_tests_properties(test_json_utf8 PROPERTIES LABELS hardening SKIP_RETURN_CODE 77
                       TIMEOUT 120)
endif()

# .ci/run stops at the first failed command (a failed setup included).
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_ci_run COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_ci_run.sh ${CMAKE_SOURCE_DIR})
  set_tests_properties(test_ci_run PROPERTIES LABELS "hardening" TIMEOUT 60)
endif()

# Every script answers --help and -h with its usage and has no side effect.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_scripts_help
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_scripts_help.sh ${CMAKE_SOURCE_DIR})
  set_tests_properties(test_scripts_help PROPERTIES LABELS "cmd" SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()

# Every script's output directory (--out, OUTDIR): a symbolic link, a directory
# others can write and (as root) another user's refused before any work, also
# above it (a 0777 parent, a link of another user's on the way).
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_script_outdirs
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_script_outdirs.sh ${CMAKE_SOURCE_DIR})
  set_tests_properties(test_script_outdirs PROPERTIES LABELS "hardening" TIMEOUT 120
                       SKIP_RETURN_CODE 77)
endif()

# The analysis scripts' inputs: a linked or FIFO results.json or samples.csv
# refused, --from DIR written into only when it is the caller's, level-check
# --from writing nothing.
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_script_inputs
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/test_script_inputs.sh ${CMAKE_SOURCE_DIR}
                   $<TARGET_FILE:muxprof>)
  set_tests_properties(test_script_inputs PROPERTIES LABELS "hardening" TIMEOUT 300
                       SKIP_RETURN_CODE 77)
endif()

# Inventory host names in the fleet playbook are data: a Jinja name, a name
# with .., an unreachable one stop it before any host task; a host not
# measured makes it fail; host-run.sh keeps to its work directory.  Short
# playbook runs on the local connection (ansible installed as root when
# missing, else 77).
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_fleet_names
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/fleet/test_fleet_names.sh ${CMAKE_BINARY_DIR})
  set_tests_properties(test_fleet_names PROPERTIES LABELS "hardening" TIMEOUT 600
                       SKIP_RETURN_CODE 77)
endif()
