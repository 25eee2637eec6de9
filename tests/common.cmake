# Tests of src/common/.
mp_add_test(test_stats SOURCES test_stats.c LABELS run)
