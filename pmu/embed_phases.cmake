# embed_phases.cmake - run as `cmake -DIN=phases.txt -DOUT=file.c -P`: writes a
# C source holding pmu/phases.txt as one string (the pattern of
# embed_presets.cmake), so the binary needs no source tree at run time.
file(READ ${IN} hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" esc "${hex}")
string(REGEX REPLACE "((\\\\x[0-9a-f][0-9a-f]){64})" "\\1\"\n  \"" esc "${esc}")
set(c "/* phases_embedded.c - GENERATED from pmu/phases.txt by pmu/embed_phases.cmake. */\n")
string(APPEND c "extern const char mp__phases_txt[];\nconst char mp__phases_txt[] =\n  \"${esc}\";\n")
file(WRITE ${OUT}.tmp "${c}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUT}.tmp ${OUT})
