# SPDX-License-Identifier: MIT
# Tests of src/results/: results.json's tables, the writer and reader through them, and
# docs/results-schema.md checked against them.
mp_add_test(test_results LIBS mp_results mp_run SOURCES test_results.c LABELS run)
mp_add_test(test_results_top LIBS mp_run SOURCES test_results_top.c LABELS run)
