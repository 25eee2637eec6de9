# SPDX-License-Identifier: MIT
# packaging.cmake - `cpack -G DEB` in a build folder (or `cmake --build BUILD
# --target package`): BUILD/muxprof_VERSION_ARCH.deb with what `cmake --install`
# installs (the program, its compressed manual page, the bash completion, the
# guides, the copyright file), under /usr.  Its Depends come from
# dpkg-shlibdeps (the libraries the program is linked with); the perfmon
# component (a capability, docs/privileges.md) is not in it.  Every file and
# folder in it has its mode set here and in the install() calls, not by the
# builder's umask.  scripts/ci-deb.sh installs, checks and removes the package.
set(MUXPROF_MAINTAINER "the muxprof authors <muxprof-maintainers@users.noreply.github.com>"
    CACHE STRING "who maintains muxprof: the Maintainer field of the .deb")

# /usr/share/doc/muxprof/copyright, machine-readable (DEP-5), from LICENSE:
# the copyright line and the licence text, each line indented, blank lines ".".
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/LICENSE)
file(READ ${CMAKE_SOURCE_DIR}/LICENSE mp_license)
string(REGEX MATCH "Copyright \\(c\\) ([^\n]+)" mp_match "${mp_license}")
set(mp_holder "${CMAKE_MATCH_1}")
string(FIND "${mp_license}" "Permission is hereby" mp_at)
if(mp_holder STREQUAL "" OR mp_at LESS 0)
  message(FATAL_ERROR "LICENSE: no 'Copyright (c) YEAR HOLDER' line or no MIT permission text")
endif()
string(SUBSTRING "${mp_license}" ${mp_at} -1 mp_text)
string(STRIP "${mp_text}" mp_text)
string(REPLACE "\n\n" "\n.\n" mp_text "${mp_text}")
string(REPLACE "\n" "\n " mp_text "${mp_text}")
file(WRITE ${CMAKE_BINARY_DIR}/share/copyright
"Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: muxprof
Upstream-Contact: ${MUXPROF_MAINTAINER}

Files: *
Copyright: ${mp_holder}
License: MIT

Files: src/trace/trace.bpf.c
Copyright: ${mp_holder}
License: MIT or GPL-2
Comment: muxprof trace's BPF program, built into /usr/bin/muxprof; the kernel
 lets only a GPL-compatible program use the helpers it calls.

License: GPL-2
 On Debian systems, the full text of the GNU General Public License version 2
 can be found in /usr/share/common-licenses/GPL-2.

License: MIT
 ${mp_text}
")
# changelog.gz: a native package's (the version has no Debian revision), one
# entry for the version, dated by SOURCE_DATE_EPOCH when it is set.
string(TIMESTAMP mp_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
file(WRITE ${CMAKE_BINARY_DIR}/share/changelog
"muxprof (${PROJECT_VERSION}) unstable; urgency=medium

  * muxprof ${PROJECT_VERSION} (README.md and docs/ describe it).

 -- ${MUXPROF_MAINTAINER}  ${mp_date}
")
execute_process(COMMAND gzip -9n -f ${CMAKE_BINARY_DIR}/share/changelog RESULT_VARIABLE mp_rc)
if(NOT mp_rc EQUAL 0)
  message(FATAL_ERROR "gzip -9n ${CMAKE_BINARY_DIR}/share/changelog failed (${mp_rc})")
endif()
include(GNUInstallDirs)
install(FILES ${CMAKE_BINARY_DIR}/share/copyright ${CMAKE_BINARY_DIR}/share/changelog.gz
        DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/muxprof PERMISSIONS ${MP_DATA_MODE})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME muxprof)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "profiles of one select/poll/epoll_wait call over N descriptors")
# The extended description (CPack puts the summary above it).
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "muxprof measures what one select(), poll() or epoll_wait() call costs on
the machine it runs on, one call at a time, for N from 10 to many thousand
descriptors, and reads hardware and software counters around each call to
relate the time to the bytes and cache lines the call touches.  It writes
results.json, CSV tables, a report and gnuplot figures, and compares runs
with each other and with published reference datasets.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_CONTACT "${MUXPROF_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${MUXPROF_MAINTAINER}")
# The folders CPack makes itself (/usr, /usr/share, ...).
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS ${MP_EXE_MODE})
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# CPack takes the package's architecture from the build machine's dpkg; a cross
# build's package is for the target's (Debian's name for CMAKE_SYSTEM_PROCESSOR).
if(CMAKE_CROSSCOMPILING)
  set(mp_deb_arch_aarch64 arm64)
  set(mp_deb_arch_x86_64 amd64)
  set(mp_deb_arch_riscv64 riscv64)
  set(mp_deb_arch_ppc64le ppc64el)
  if(NOT DEFINED mp_deb_arch_${CMAKE_SYSTEM_PROCESSOR})
    message(FATAL_ERROR "no Debian architecture known for CMAKE_SYSTEM_PROCESSOR "
      "'${CMAKE_SYSTEM_PROCESSOR}' (cmake/packaging.cmake knows aarch64, x86_64, riscv64, ppc64le): "
      "add it there")
  endif()
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE ${mp_deb_arch_${CMAKE_SYSTEM_PROCESSOR}})
endif()
set(CPACK_STRIP_FILES ON)   # the debug information stays in the build's bin/muxprof
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "gnuplot-nox | gnuplot")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "linux-perf")
include(CPack)

# `cmake --build BUILD --target bundle`: scripts/bundle.sh into BUILD/dist
# (the portable folder and its .tar.gz, docs/bundle.md).
if(TARGET mp_manual)
  add_custom_target(bundle
    COMMAND sh ${CMAKE_SOURCE_DIR}/scripts/bundle.sh --out ${CMAKE_BINARY_DIR}/dist ${CMAKE_BINARY_DIR}
    DEPENDS muxprof mp_manual
    COMMENT "scripts/bundle.sh: ${CMAKE_BINARY_DIR}/dist" VERBATIM)
endif()
