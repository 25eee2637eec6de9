# embed_presets.cmake - run as `cmake -DOUT=file.c -DDIR=presets -P`: writes a
# C source holding every presets/*.txt as a string, so the binary needs no
# source tree at run time.
file(GLOB files RELATIVE ${DIR} ${DIR}/*.txt)
list(SORT files)
set(c "/* presets.c - GENERATED from the pmu/presets/ data files by pmu/embed_presets.cmake. */\n")
string(APPEND c "#include \"pmu_int.h\"\n\nconst mp__preset_file mp__preset_files[] = {\n")
set(n 0)
foreach(f ${files})
  file(READ ${DIR}/${f} hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "\\\\x\\1" esc "${hex}")
  # Break the literal every 64 bytes so no line is huge.
  string(REGEX REPLACE "((\\\\x[0-9a-f][0-9a-f]){64})" "\\1\"\n    \"" esc "${esc}")
  string(APPEND c "  {\"${f}\",\n    \"${esc}\"},\n")
  math(EXPR n "${n} + 1")
endforeach()
string(APPEND c "};\nconst unsigned mp__n_preset_files = ${n};\n")
file(WRITE ${OUT}.tmp "${c}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different ${OUT}.tmp ${OUT})
