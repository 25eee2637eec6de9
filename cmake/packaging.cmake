# packaging.cmake - `cpack -G DEB` in a build folder (or `cmake --build BUILD
# --target package`): muxprof_VERSION_ARCH.deb with what `cmake --install`
# installs (the program, its manual page, the bash completion, the guides),
# under /usr.  Its Depends come from dpkg-shlibdeps (the libraries the program
# is linked with); the perfmon component (a capability, docs/privileges.md)
# is not in it.  scripts/ci-deb.sh installs, checks and removes the package.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME muxprof)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "micro-architectural profiles of one select/poll/epoll_wait call over N descriptors")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(MUXPROF_DEB_MAINTAINER "muxprof maintainers <muxprof@localhost>" CACHE STRING
    "the Maintainer field of the .deb (cpack -G DEB)")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${MUXPROF_DEB_MAINTAINER}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gnuplot-nox | gnuplot")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "linux-perf")
set(CPACK_PACKAGE_DIRECTORY ${CMAKE_BINARY_DIR}/package)
include(CPack)

# `cmake --build BUILD --target bundle`: scripts/bundle.sh into BUILD/dist
# (the portable folder and its .tar.gz, docs/bundle.md).
if(TARGET mp_manual)
  add_custom_target(bundle
    COMMAND sh ${CMAKE_SOURCE_DIR}/scripts/bundle.sh --out ${CMAKE_BINARY_DIR}/dist ${CMAKE_BINARY_DIR}
    DEPENDS muxprof mp_manual
    COMMENT "scripts/bundle.sh: ${CMAKE_BINARY_DIR}/dist" VERBATIM)
endif()
