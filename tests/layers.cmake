# The layering of src/ (docs/ARCHITECTURE.md): no folder includes one above
# it, no include circle.  Reads the sources, so it runs the same everywhere.
mp_add_test(test_layers SOURCES test_layers.c LABELS layout)
target_compile_definitions(test_layers PRIVATE MP_TEST_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
