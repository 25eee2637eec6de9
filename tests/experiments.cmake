# SPDX-License-Identifier: MIT
# Tests of src/experiments/.
mp_add_test(test_experiments LIBS mp_experiments SOURCES test_experiments.c LABELS run
  NATIVE_ONLY "thread wakeups and /proc task states of an emulated process are qemu's, not the program's")
mp_add_test(test_exp_table LIBS mp_experiments SOURCES test_exp_table.c LABELS run)
