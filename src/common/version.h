/* SPDX-License-Identifier: MIT */
/* version.h - what muxprof this is: the release number (the CMake project
 * version) and the git describe of the source tree when the binary was
 * built ("-dirty" when it had uncommitted changes).  Generated at build
 * time by cmake/version.cmake. */
#ifndef MP_VERSION_H
#define MP_VERSION_H

const char *mp_version_release(void);
const char *mp_version_git(void);

#endif
