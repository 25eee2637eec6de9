#!/bin/sh
# SPDX-License-Identifier: MIT
# test_fixture_generators.sh SOURCE_DIR - the committed fixtures are what their
# generators write: each generator of tests/fixtures/ (report/make_fixtures.py,
# then compare/make_fixtures.py and compare/make_more.py, which reads the
# report's synthetic run) runs in an empty copy of its folder, and every file
# it writes must be byte for byte the committed one, and committed.
# report/trim_profile.py is not run: it trims a real run that is not kept.
set -u
src=${1:?usage: test_fixture_generators.sh SOURCE_DIR}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: test_fixture_generators: no python3"; exit 77; }
fx=$src/tests/fixtures
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mp-fixtures.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
fail() { echo "FAIL: test_fixture_generators: $*" >&2; exit 1; }
bad=0 n=0
for gen in report/make_fixtures.py compare/make_fixtures.py compare/make_more.py; do
    dir=${gen%/*}
    mkdir -p "$tmp/$dir" && cp "$fx/$gen" "$tmp/$gen" || exit 1
    before=$(cd "$tmp" && find . -type f | sort)
    (cd "$tmp/$dir" && python3 "${gen#*/}" >"$tmp/$gen.out" 2>&1) ||
        fail "$gen failed: $(tail -n 3 "$tmp/$gen.out" | tr '\n' ' ')"
    rm -f "$tmp/$gen.out"
    made=$(cd "$tmp" && find . -type f | sort | grep -vxF "$before")
    [ -n "$made" ] || fail "$gen wrote no file"
    for f in $made; do
        f=${f#./}
        n=$((n + 1))
        if [ ! -f "$fx/$f" ]; then
            echo "$gen writes tests/fixtures/$f, which is not committed" >&2; bad=$((bad + 1))
        elif ! cmp -s "$tmp/$f" "$fx/$f"; then
            echo "$gen writes tests/fixtures/$f other than the committed one (run it there and commit)" >&2
            bad=$((bad + 1))
        fi
    done
done
[ "$bad" = 0 ] || fail "$bad of $n generated fixtures differ from their generators' output"
echo "test_fixture_generators: $n fixtures are what their 3 generators write"
