# Tests of src/cmd/: the run options table, and usage errors of the binary.
mp_add_test(test_cli SOURCES test_cli.c LABELS run)
