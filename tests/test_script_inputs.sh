#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_script_inputs.sh - the analysis scripts (bias-check.py,
# level-check.py, uncertainty-check.py) read a run directory as muxprof
# does and write only where they may:
#   - a results.json or samples.csv that is a symbolic link (to a file
#     standing for /etc/shadow) or a FIFO is refused: exit 1, one line naming
#     it, within a bound, and the file's text is in no output;
#   - --from DIR with the result written into DIR (bias-check;
#     uncertainty-check without --out) refuses a DIR of mode 0777 or (as
#     root) one owned by nobody: exit 1, one line, nothing written;
#   - level-check.py --from DIR leaves DIR as it was (its shifted copies
#     go to a private directory of its own).
# The runs are copies of a fixture; compare is the real muxprof.
#
#   tests/test_script_inputs.sh SOURCE_DIR MUXPROF
set -u
src=${1:?usage: test_script_inputs.sh SOURCE_DIR MUXPROF}
bin=${2:?usage: test_script_inputs.sh SOURCE_DIR MUXPROF}
command -v python3 >/dev/null || { echo "SKIP: no python3 for the Python scripts"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/muxprof-inputs.XXXXXX") || exit 1
chmod 0755 "$work"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
fail=0
no() { echo "FAIL: $*"; fail=1; }
root=0; [ "$(id -u)" = 0 ] && root=1
other=65534
fixture=$src/tests/fixtures/compare/hostA/results.json
secret=$work/secret
# shellcheck disable=SC2016  # a shadow line, $ and all
echo 'root:$6$SECRETHASH:20228:0:99999:7:::' >"$secret"
chmod 0600 "$secret"

# runs DIR PREFIX K: DIR/PREFIX01 .. PREFIXK, each a copy of the fixture
runs() {
    local i
    mkdir -p "$1"
    for i in $(seq 1 "$3" | xargs printf "%02d\n"); do mkdir -p "$1/$2$i" && cp "$fixture" "$1/$2$i/results.json"; done
}
# refused NAME WHAT CMD...: exit 1, one stderr line containing WHAT, the secret nowhere
refused() {
    local name=$1 what=$2 st lines
    shift 2
    timeout 60 "$@" >"$work/out" 2>"$work/err" </dev/null
    st=$?
    lines=$(wc -l <"$work/err")
    [ "$st" = 1 ] || no "$name: exit $st, not 1: $(head -c 300 "$work/err")"
    [ "$lines" = 1 ] || no "$name: $lines lines on stderr, not 1: $(head -c 300 "$work/err")"
    grep -qF -- "$what" "$work/err" || no "$name: stderr does not say '$what': $(head -c 300 "$work/err")"
    if grep -rlF SECRETHASH "$work" --exclude=secret 2>/dev/null | grep -q .; then
        no "$name: the linked file's text reached $(grep -rlF SECRETHASH "$work" --exclude=secret | head -n 1)"
        grep -rlF SECRETHASH "$work" --exclude=secret | grep -v '/secret$' | xargs rm -f
    fi
}
py=python3
bias=$src/scripts/bias-check.py
level=$src/scripts/level-check.py
unc=$src/scripts/uncertainty-check.py

# 1. a results.json that is a link, then one that is a FIFO
for kind in link fifo; do
    d=$work/$kind
    rm -rf "$d" && runs "$d/runs" r 4 && runs "$d/runs" A 3 && runs "$d" q 8
    for r in "$d/runs/r01" "$d/runs/A01" "$d/q01"; do
        rm "$r/results.json"
        if [ "$kind" = link ]; then ln -s "$secret" "$r/results.json"; else mkfifo "$r/results.json"; fi
    done
    what="is a symbolic link"; [ "$kind" = fifo ] && what="is not a regular file"
    refused "uncertainty-check --from ($kind results.json)" "results.json $what" \
        $py "$unc" --from "$d" --bin "$bin"
    refused "bias-check --from ($kind results.json)" "$what" $py "$bias" --from "$d"
    refused "level-check --from ($kind results.json)" "$d/q01/results.json $what" \
        $py "$level" --from "$d" --bin "$bin"
done

# 2. a samples.csv that is a link: uncertainty-check copies the second run of
# each pair (scaled) for its power check
d=$work/samples
rm -rf "$d" && runs "$d/runs" r 4 && ln -s "$secret" "$d/runs/r02/samples.csv"
refused "uncertainty-check --from (linked samples.csv)" "$d/runs/r02/samples.csv is a symbolic link" \
    $py "$unc" --from "$d" --bin "$bin"

# 3. --from DIR written into: a 0777 one, and (as root) nobody's
for how in open theirs; do
    [ "$how" = theirs ] && [ "$root" = 0 ] && continue
    for s in unc bias; do
        d=$work/$how-$s
        rm -rf "$d" && runs "$d/runs" r 4 && runs "$d/runs" A 3
        if [ "$how" = open ]; then chmod 0777 "$d"; what="writable by others"
        else chown "$other" "$d"; what="owned by uid $other"; fi
        before=$(cd "$d" && find . | sort)
        if [ "$s" = unc ]; then
            refused "uncertainty-check --from ($how)" "$what" $py "$unc" --from "$d" --bin "$bin"
        else
            refused "bias-check --from ($how)" "$what" $py "$bias" --from "$d"
        fi
        [ "$(cd "$d" && find . | sort)" = "$before" ] || no "$s --from ($how) wrote into $d"
    done
done

# 4. level-check --from leaves DIR as it was
d=$work/level
rm -rf "$d" && runs "$d" q 8
before=$(cd "$d" && find . -printf '%p %s %T@\n' | sort)
timeout 300 $py "$level" --from "$d" --bin "$bin" >"$work/out" 2>"$work/err" </dev/null
st=$?
[ "$st" = 0 ] || no "level-check --from 8 copies: exit $st: $(head -c 300 "$work/err")"
grep -q "^pooled 4 against 4" "$work/out" || no "level-check --from 8 copies printed no pooled A/A line: $(head -c 300 "$work/out")"
[ "$(cd "$d" && find . -printf '%p %s %T@\n' | sort)" = "$before" ] || no "level-check --from wrote into $d: $(cd "$d" && find . | sort | head -n 5)"

theirs=" and nobody's"; [ "$root" = 1 ] || theirs=" (another user's: skipped, not root)"
[ "$fail" = 0 ] && echo "test_script_inputs: linked and FIFO results.json/samples.csv refused by 3 scripts; --from written into refuses 0777$theirs; level-check --from writes nothing"
exit "$fail"
