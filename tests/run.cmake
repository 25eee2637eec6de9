# Tests of src/run/: the descriptor helper, whole runs through the binary.
mp_add_test(test_peer SOURCES test_peer.c LABELS run)
mp_add_test(test_run SOURCES test_run.c LABELS run integration TIMEOUT 300)
