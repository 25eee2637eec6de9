# Tests of src/cmd/: the run options table, and usage errors of the binary.
mp_add_test(test_cli SOURCES test_cli.c LABELS run)
mp_add_test(test_cli_exit SOURCES test_cli_exit.c LABELS run integration TIMEOUT 300
            NATIVE_ONLY "starts many runs of the binary")
