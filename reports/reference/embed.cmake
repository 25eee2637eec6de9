# embed.cmake - turn reports/reference/*.json into a C file, so the muxprof
# binary carries its reference datasets and `muxprof compare RUN NAME` finds
# them wherever it runs.  Same scheme as plots/embed.cmake (bytes as hex, a
# NUL-terminated array per file, a table ending with {0}).
# Usage: cmake -DREF_DIR=<dir with .json files> -DOUT=<file.c> -P embed.cmake
file(GLOB refs RELATIVE ${REF_DIR} ${REF_DIR}/*.json)
list(SORT refs)
set(body "/* generated from the .json files in reports/reference/ by reports/reference/embed.cmake - do not edit */\n")
string(APPEND body "#include \"compare_ref.h\"\n\n")
set(table "")
set(i 0)
foreach(r ${refs})
  file(READ ${REF_DIR}/${r} hex HEX)
  string(LENGTH "${hex}" hexlen)
  math(EXPR len "${hexlen} / 2")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "((0x..,){16})" "\\1\n    " bytes "${bytes}")
  string(REGEX REPLACE "\\.json$" "" name "${r}")
  string(APPEND body "static const char mp__ref${i}[] = {\n    ${bytes}0x00};\n")
  string(APPEND table "    {\"${name}\", mp__ref${i}, ${len}},\n")
  math(EXPR i "${i} + 1")
endforeach()
string(APPEND body "\nconst mp_cmp_ref mp_cmp_refs[] = {\n${table}    {0, 0, 0}\n};\n")
file(WRITE ${OUT}.tmp "${body}")
file(RENAME ${OUT}.tmp ${OUT})
