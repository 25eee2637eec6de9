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
