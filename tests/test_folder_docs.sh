#!/bin/sh
# SPDX-License-Identifier: MIT
# test_folder_docs.sh SOURCE_DIR LAYERS - each folder's README.md and the
# folder table of docs/ARCHITECTURE.md agree with the build.  LAYERS is the
# build's MP_LAYERS ("name:used used ...|name:...", cmake/layer.cmake).  For
# each folder (src/NAME, or NAME at the top for pmu, topology, sim):
#   - NAME's README.md has one `Uses: ` line naming exactly the folders its
#     mp_layer() USES, in that order ("Uses: nothing" for none);
#   - its "## Files" names every .c and .h file of the folder in backticks, and
#     every backticked *.c / *.h name in the README is a file that exists
#     (bare: in the folder; "pmu/pmu.h": under src/ or the top);
#   - its "## Entry points" names at least one header with its folder
#     ("run/measure.h"), and each one it names exists;
#   - docs/ARCHITECTURE.md's table row for the folder has the same list.
set -u
src=${1:?usage: test_folder_docs.sh SOURCE_DIR LAYERS}
layers=${2:?usage: test_folder_docs.sh SOURCE_DIR LAYERS}
cd "$src" || exit 1
arch=docs/ARCHITECTURE.md
[ -s "$arch" ] || { echo "FAIL: test_folder_docs: no $arch" >&2; exit 1; }
bad=0
complain() { echo "$*" >&2; bad=$((bad + 1)); }

# A backticked name as a path from the top, or empty when it names no file.
resolve() { # folder name
    case $2 in
        */*) for p in "src/$2" "$2" "$1/$2"; do [ -f "$p" ] && { echo "$p"; return; }; done ;;
        *) [ -f "$1/$2" ] && echo "$1/$2" ;;
    esac
}

n=0
old_ifs=$IFS
IFS="|"
for row in $layers; do
    IFS=$old_ifs
    name=${row%%:*} uses=${row#*:}
    [ "$name" = main ] && continue
    if [ -d "src/$name" ]; then dir=src/$name; else dir=$name; fi
    [ -d "$dir" ] || { complain "$name: no folder src/$name or $name"; continue; }
    n=$((n + 1))
    want=$(echo "$uses" | sed 's/^ *//; s/ *$//; s/  */, /g')
    [ -n "$want" ] || want=nothing
    readme=$dir/README.md
    if [ ! -s "$readme" ]; then complain "$dir: no README.md"; continue; fi

    got=$(grep '^Uses: ' "$readme")
    case $(printf '%s\n' "$got" | grep -c .) in
        1) [ "$got" = "Uses: $want" ] ||
               complain "$readme: '$got', but its CMakeLists.txt USES '$want'" ;;
        0) complain "$readme: no 'Uses: ' line (want 'Uses: $want')" ;;
        *) complain "$readme: more than one 'Uses: ' line" ;;
    esac

    files=$(sed -n '/^## Files/,/^## /p' "$readme")
    [ -n "$files" ] || complain "$readme: no '## Files' section"
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        list=$(git ls-files -- "$dir" | grep -E '\.[ch]$')
    else
        list=$(find "$dir" -type f -name '*.[ch]' | sort)
    fi
    for f in $list; do
        rel=${f#"$dir"/}
        printf '%s\n' "$files" | grep -qF "\`$rel\`" || complain "$readme: '## Files' does not name $rel"
    done

    for t in $(grep -o '`[A-Za-z0-9_./-]*\.[ch]`' "$readme" | tr -d '`' | sort -u); do
        [ -n "$(resolve "$dir" "$t")" ] || complain "$readme: names $t, which is no file"
    done

    entry=$(sed -n '/^## Entry points/,/^## /p' "$readme" | grep -o '`[a-z]*/[A-Za-z0-9_]*\.h`' | tr -d '`')
    [ -n "$entry" ] || complain "$readme: '## Entry points' names no header with its folder (\"run/measure.h\")"

    cell=$(awk -F'|' -v f="\`$name/\`" '$2 ~ "^ *" f " *$" { gsub(/^ +| +$/, "", $3); print $3; exit }' "$arch")
    if [ -z "$cell" ]; then
        complain "$arch: no row for \`$name/\` in the folder table"
    elif [ "$cell" != "$want" ]; then
        complain "$arch: \`$name/\` may use '$cell', but its CMakeLists.txt USES '$want'"
    fi
    IFS="|"
done
IFS=$old_ifs
[ "$n" -ge 10 ] || complain "only $n folders in LAYERS '$layers': is the list right?"
[ "$bad" = 0 ] || { echo "FAIL: test_folder_docs: $bad disagreements between the folders' README.md, $arch and the build" >&2; exit 1; }
echo "test_folder_docs: $n folders: README.md's Uses, entry points and files, and $arch's table, agree with the build"
