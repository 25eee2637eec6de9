# SPDX-License-Identifier: MIT
# Tests of `muxprof compare` and the reference datasets.  Label: compare.
mp_add_test(test_compare LIBS mp_cmd SOURCES test_compare.c LABELS compare)
