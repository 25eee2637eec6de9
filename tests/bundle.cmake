# SPDX-License-Identifier: MIT
# scripts/bundle.sh: the portable folder and its .tar.gz, run with the host's
# library folders hidden (native, or an arm64 cross build under qemu-user).
add_test(NAME test_bundle
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_bundle.sh ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}
                 ${CMAKE_CURRENT_BINARY_DIR}/bundle-test)
set_tests_properties(test_bundle PROPERTIES LABELS "bundle;integration" TIMEOUT 300
                     SKIP_RETURN_CODE 77)
# scripts/validate-host.sh with a stand-in perf (verdicts, exit status, the output directory,
# OUTDIRs another user prepared: hardening).
if(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  add_test(NAME test_validate_host
           COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_validate_host.sh $<TARGET_FILE:muxprof>
                   ${CMAKE_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/validate-host-test)
  set_tests_properties(test_validate_host PROPERTIES LABELS "bundle;integration;hardening" TIMEOUT 300
                       SKIP_RETURN_CODE 77)
endif()
# The .deb and the bundle, each made under umask 000: every mode set by them.
add_test(NAME test_package_modes
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_package_modes.sh ${CMAKE_SOURCE_DIR}
                 ${CMAKE_BINARY_DIR} ${CMAKE_CURRENT_BINARY_DIR}/package-modes-test)
set_tests_properties(test_package_modes PROPERTIES LABELS "hardening;bundle" TIMEOUT 300
                     SKIP_RETURN_CODE 77)
# What the .deb holds: maintainer, copyright file, man page, doc folder, lintian.
add_test(NAME test_deb
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_deb.sh ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}
                 ${CMAKE_CURRENT_BINARY_DIR}/deb-test)
set_tests_properties(test_deb PROPERTIES LABELS "bundle" TIMEOUT 300 SKIP_RETURN_CODE 77)
# Every tracked source file names its licence (SPDX-License-Identifier: MIT).
add_test(NAME test_spdx COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_spdx.sh ${CMAKE_SOURCE_DIR})
set_tests_properties(test_spdx PROPERTIES LABELS "licence" TIMEOUT 60 SKIP_RETURN_CODE 77)
