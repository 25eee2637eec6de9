#!/bin/sh
# SPDX-License-Identifier: MIT
# The repository stands alone: no file names a path of the project's private
# workspace (the folder of source articles and design notes beside a checkout),
# and every relative Markdown link in README.md and docs/ names a file that is
# in the repository.
# usage: test_standalone.sh SOURCE_DIR
set -u
src=$1
cd "$src" || exit 1
if [ -d .git ] || [ -f .git ]; then
    files=$(git ls-files --cached --others --exclude-standard)
else
    files=$(find . -path ./build -prune -o -path './build-*' -prune -o -type f -print)
fi
fail=0
# Spelled in two parts so this file does not match itself.
ws=shared
for f in $files; do
    [ -f "$f" ] || continue
    if grep -InE "$ws/(seeds|design|hooks)" "$f" >/dev/null 2>&1; then
        grep -InE "$ws/(seeds|design|hooks)" "$f" | sed "s|^|FAIL: $f:|"
        fail=1
    fi
done
for md in README.md docs/*.md docs/*/*.md; do
    [ -f "$md" ] || continue
    dir=$(dirname "$md")
    # [text](target): a target without blanks or backticks, closed; anchors
    # and URLs left out
    for t in $(grep -oE '\]\([^)#[:space:]`]+(#[^)[:space:]`]*)?\)' "$md" |
               sed 's/^](//; s/)$//; s/#.*//' |
               grep -vE '^[a-z]+:'); do
        [ -e "$dir/$t" ] || { echo "FAIL: $md links to $t, which is not in the repository"; fail=1; }
    done
done
[ $fail = 0 ] && echo "standalone: no workspace path, every relative link resolves"
exit $fail
