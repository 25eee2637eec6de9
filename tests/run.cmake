# Tests of the run verb.
