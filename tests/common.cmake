# Tests of src/common/.
mp_add_test(test_stats SOURCES test_stats.c LABELS run)
# --anonymize: what is replaced and what is kept.
mp_add_test(test_anonymize SOURCES test_anonymize.c LABELS privacy)
