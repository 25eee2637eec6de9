#!/bin/sh
# test_spdx.sh SOURCE_DIR - every tracked source file says its licence in one
# of its first 3 lines: `SPDX-License-Identifier: MIT` (LICENSE).  The files:
# *.c *.h *.sh *.py *.cmake *.gp, every CMakeLists.txt, everything under
# scripts/, .ci/run and deploy/**/*.yml, the programs that write
# tests/fixtures/; not the data under docs/ (recorded runs) or
# tests/fixtures/ (inputs read as they are).  Lists every file that
# lacks the line.  Exit 77 outside a git checkout.
set -u
src=${1:?usage: test_spdx.sh SOURCE_DIR}
cd "$src" || exit 1
command -v git >/dev/null 2>&1 && git rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
    { echo "SKIP: test_spdx: $src is not a git checkout (no list of tracked files)"; exit 77; }
[ -s LICENSE ] && grep -q '^MIT License' LICENSE || { echo "FAIL: test_spdx: no MIT LICENSE at the top" >&2; exit 1; }
list=$(mktemp) || exit 1
trap 'rm -f "$list"' EXIT
git ls-files -z -- '*.c' '*.h' '*.sh' '*.py' '*.cmake' '*.gp' 'CMakeLists.txt' '*/CMakeLists.txt' \
    'scripts/*' '.ci/run' 'deploy/*.yml' ':!docs/*' ':!tests/fixtures/*' | tr '\0' '\n' >"$list"
git ls-files -z -- 'tests/fixtures/*.py' 'tests/fixtures/*.sh' | tr '\0' '\n' >>"$list"
sort -u -o "$list" "$list"
n=$(wc -l <"$list")
[ "$n" -ge 100 ] || { echo "FAIL: test_spdx: only $n source files listed: is the pattern list right?" >&2; exit 1; }
bad=0
while IFS= read -r f; do
    [ -f "$f" ] || continue
    if ! head -n 3 "$f" | grep -q 'SPDX-License-Identifier: MIT\b'; then
        echo "no 'SPDX-License-Identifier: MIT' in the first 3 lines: $f" >&2
        bad=$((bad + 1))
    fi
done <"$list"
[ "$bad" = 0 ] || { echo "FAIL: test_spdx: $bad of $n source files lack the SPDX line" >&2; exit 1; }
echo "test_spdx: $n source files carry SPDX-License-Identifier: MIT"
