# Tests of the run verb.
mp_add_test(test_stats SOURCES test_stats.c LABELS run)
mp_add_test(test_cli SOURCES test_cli.c LABELS run)
mp_add_test(test_backends SOURCES test_backends.c LABELS run)
mp_add_test(test_run SOURCES test_run.c LABELS run integration TIMEOUT 300)
