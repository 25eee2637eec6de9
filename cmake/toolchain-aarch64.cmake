# SPDX-License-Identifier: MIT
# toolchain-aarch64.cmake - cross-build muxprof for Arm AArch64 (arm64) on a
# Debian/Ubuntu x86_64 host with gcc-aarch64-linux-gnu and the arm64
# libraries from Debian's multiarch packages:
#
#   dpkg --add-architecture arm64 && apt-get update
#   apt-get install gcc-aarch64-linux-gnu qemu-user libhwloc-dev:arm64 \
#       libpfm4-dev:arm64 libcjson-dev:arm64 libcmocka-dev:arm64 liburing-dev:arm64
#
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64.cmake
#
# scripts/cross-aarch64.sh does all of that and runs ctest under qemu-aarch64
# (see docs/arm64.md).  Multiarch puts arm64 libraries in
# /usr/lib/aarch64-linux-gnu and their headers in /usr/include (shared with
# the host) and /usr/include/aarch64-linux-gnu; the cross compiler's own C
# library lives in /usr/aarch64-linux-gnu.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(MP_AARCH64_TRIPLE aarch64-linux-gnu)

set(CMAKE_C_COMPILER ${MP_AARCH64_TRIPLE}-gcc)
set(CMAKE_LIBRARY_ARCHITECTURE ${MP_AARCH64_TRIPLE})

# Libraries: only the arm64 directories (never /usr/lib/x86_64-linux-gnu).
set(CMAKE_FIND_ROOT_PATH /usr/${MP_AARCH64_TRIPLE})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
set(CMAKE_LIBRARY_PATH /usr/lib/${MP_AARCH64_TRIPLE} /lib/${MP_AARCH64_TRIPLE})

# The multiarch headers come after the cross compiler's own, so its C
# library headers win and only the library headers (hwloc.h, cjson/,
# perfmon/, cmocka.h, liburing.h) are taken from /usr/include.
set(CMAKE_C_FLAGS_INIT
    "-idirafter /usr/include/${MP_AARCH64_TRIPLE} -idirafter /usr/include")

# pkg-config: the arm64 .pc files only.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/${MP_AARCH64_TRIPLE}/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

# ctest (and add_test with a target as COMMAND) runs the arm64 programs
# through qemu-user, started by the program loader of the multiarch libc6:arm64
# with that package's libraries: loader and libc.so.6 from one package.  (The
# cross toolchain's loader in /usr/${MP_AARCH64_TRIPLE}/lib with the multiarch
# libc.so.6 is a mismatched pair: a forked child then spins in glibc's fork
# code, which looked like a qemu-user fork deadlock.)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64
    /usr/lib/${MP_AARCH64_TRIPLE}/ld-linux-aarch64.so.1
    --library-path /usr/lib/${MP_AARCH64_TRIPLE}:/lib/${MP_AARCH64_TRIPLE})
