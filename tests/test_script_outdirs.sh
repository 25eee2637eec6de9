#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_script_outdirs.sh - every script that writes an output directory
# refuses one it cannot trust, before any work: --out (or OUTDIR) a symbolic
# link to a directory, an existing directory of mode 0777, and (as root) one
# owned by nobody, a new directory inside one of mode 0777 and (as root) one
# reached through a link of nobody's: exit 1, one line on stderr naming the
# path, and the directory (the link's target) left empty.  claims-check.py's default is a
# new mkdtemp directory, not a fixed path.  scripts/lib/outdir.py and
# scripts/lib/outdir.sh checked directly: a new path made 0755 (the default
# 0700), an own 0755 or 0700 directory accepted, also inside a sticky 1777
# one or through one's own link; links, 0777 and another user's directories
# refused, and so are directories above of mode 0777 (not sticky) or group
# writable by another group, and links above of another user's.  Nothing is measured.
#
#   tests/test_script_outdirs.sh SOURCE_DIR
set -u
src=${1:?usage: test_script_outdirs.sh SOURCE_DIR}
command -v python3 >/dev/null || { echo "SKIP: no python3 for the Python scripts"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/muxprof-outdirs.XXXXXX") || exit 1
chmod 0755 "$work"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
fail=0
no() { echo "FAIL: $*"; fail=1; }
root=0; [ "$(id -u)" = 0 ] && root=1
other=65534

# refused NAME DIR CMD...: CMD (with DIR in it) exits 1 with one stderr line naming DIR,
# and DIR's target is left empty.
refused() {
    local name=$1 dir=$2 target=$3 st lines
    shift 3
    (cd "$work/cwd" && TMPDIR="$work/tmp" timeout 60 "$@" >"$work/out" 2>"$work/err" </dev/null)
    st=$?
    lines=$(wc -l <"$work/err")
    [ "$st" = 1 ] || no "$name: exit $st, not 1: $(head -c 300 "$work/err")"
    [ "$lines" = 1 ] || no "$name: $lines lines on stderr, not 1: $(head -c 300 "$work/err")"
    grep -qF -- "$dir" "$work/err" || no "$name: stderr does not name $dir: $(head -c 300 "$work/err")"
    [ -z "$(ls -A "$target")" ] || no "$name: wrote into $target: $(ls -A "$target" | head -n 3)"
}

# each script: a command with @OUT@ where the output directory goes
cmds=(
  "python3 $src/scripts/claims-check.py --runs 1 --muxprof /bin/false --out @OUT@"
  "python3 $src/scripts/bias-check.py --out @OUT@ --bin /bin/false --pairs 6"
  "python3 $src/scripts/level-check.py --out @OUT@ --bin /bin/false"
  "python3 $src/scripts/uncertainty-check.py --out @OUT@ --bin /bin/true --runs 4"
  "python3 $src/bench/make_big_results.py 10 @OUT@"
  "bash $src/scripts/muxsim.sh --out @OUT@"
  "sh $src/scripts/readme-runs.sh @OUT@"
  "bash $src/scripts/arm64-vm.sh --out @OUT@ -- --quick"
  "bash $src/scripts/x86-vm.sh --out @OUT@ -- --quick"
  "bash $src/scripts/arm64-validate.sh --out @OUT@"
  "sh $src/scripts/bundle.sh --out @OUT@ $work/no-build"
  "sh $src/scripts/same-output.sh /bin/true @OUT@"
)
n=0
for c in "${cmds[@]}"; do
    n=$((n + 1))
    name=$(echo "$c" | awk '{print $2}'); name=${name#"$src"/}
    rm -rf "$work/cwd" "$work/tmp" "$work/t$n" && mkdir -p "$work/cwd" "$work/tmp" "$work/t$n"
    # a symbolic link to a directory of the test's
    mkdir -m 0755 "$work/t$n/target" && ln -s "$work/t$n/target" "$work/t$n/link"
    # shellcheck disable=SC2086  # the command's words
    refused "$name --out LINK" "$work/t$n/link" "$work/t$n/target" ${c//@OUT@/$work/t$n/link}
    # a directory anyone may write
    mkdir "$work/t$n/open" && chmod 0777 "$work/t$n/open"
    # shellcheck disable=SC2086
    refused "$name --out 0777" "$work/t$n/open" "$work/t$n/open" ${c//@OUT@/$work/t$n/open}
    if [ "$root" = 1 ]; then
        mkdir -m 0755 "$work/t$n/theirs" && chown "$other" "$work/t$n/theirs"
        # shellcheck disable=SC2086
        refused "$name --out nobody's" "$work/t$n/theirs" "$work/t$n/theirs" ${c//@OUT@/$work/t$n/theirs}
        # a link of nobody's above a new directory
        mkdir -m 0755 "$work/t$n/target2" && ln -s "$work/t$n/target2" "$work/t$n/via" &&
            chown -h "$other" "$work/t$n/via"
        # shellcheck disable=SC2086
        refused "$name --out VIA/new" "$work/t$n/via/new" "$work/t$n/target2" ${c//@OUT@/$work/t$n/via/new}
    fi
    # a new directory inside one anyone may write (not sticky)
    # shellcheck disable=SC2086
    refused "$name --out 0777/new" "$work/t$n/open/new" "$work/t$n/open" ${c//@OUT@/$work/t$n/open/new}
done
[ "$root" = 1 ] || echo "test_script_outdirs: not root: another user's --out not checked (skipped)"

# claims-check.py's default: a new directory under TMPDIR, 0700, named in its messages.
rm -rf "$work/cwd" "$work/tmp" && mkdir -p "$work/cwd" "$work/tmp"
(cd "$work/cwd" && TMPDIR="$work/tmp" timeout 60 python3 "$src/scripts/claims-check.py" --runs 1 \
    --muxprof /bin/false >"$work/out" 2>"$work/err" </dev/null)
made=$(ls -d "$work"/tmp/claims-check.* 2>/dev/null | head -n 1)
if [ -z "$made" ]; then
    no "claims-check.py made no claims-check.* directory under TMPDIR: $(head -c 300 "$work/err")"
else
    [ "$(stat -c %a "$made")" = 700 ] || no "claims-check.py's default $made is mode $(stat -c %a "$made")"
    grep -qF "$made" "$work/err" || no "claims-check.py does not say where its runs went ($made)"
fi
grep -q '"/tmp/claims-check"' "$src/scripts/claims-check.py" && no "claims-check.py still names /tmp/claims-check"

# The modules themselves.
lib=$src/scripts/lib
u=$work/unit
rm -rf "$u" && mkdir -m 0755 "$u"
py() { (cd "$u" && TMPDIR="$u" python3 -c "import sys; sys.path.insert(0, '$lib'); from outdir import outdir; print(outdir('unit', *sys.argv[1:]))" "$@"); }
sh_od() { (cd "$u" && TMPDIR="$u" sh -c ". '$lib/outdir.sh'; outdir_make unit --out \"\$1\"; echo \"\$OUTDIR\"" sh "$@"); }
for impl in py sh_od; do
    rm -rf "$u"/* 2>/dev/null
    got=$($impl "$u/new/deep") && [ "$got" = "$u/new/deep" ] && [ "$(stat -c %a "$u/new/deep")" = 755 ] &&
        [ "$(stat -c %a "$u/new")" = 755 ] || no "$impl: a new path not made 0755: $got"
    got=$($impl rel) && [ "$got" = "$u/rel" ] && [ -d "$u/rel" ] || no "$impl: a relative path not made absolute: $got"
    got=$($impl "") && case $got in "$u"/unit.*) [ "$(stat -c %a "$got")" = 700 ] ;; *) false ;; esac ||
        no "$impl: the default is not a new 0700 directory under TMPDIR: $got"
    mkdir -m 0755 "$u/own755" && mkdir -m 0700 "$u/own700"
    $impl "$u/own755" >/dev/null || no "$impl: an own 0755 directory refused"
    $impl "$u/own700/" >/dev/null || no "$impl: an own 0700 directory refused"
    mkdir -m 0755 "$u/t" && ln -s "$u/t" "$u/l"
    for bad in l l/ open grp file; do
        case $bad in open) mkdir "$u/open" && chmod 0777 "$u/open" ;;
                     grp) mkdir "$u/grp" && chmod 0775 "$u/grp" ;;
                     file) : >"$u/file" ;; esac
        $impl "$u/$bad" >/dev/null 2>"$u/.err"; st=$?
        [ "$st" = 1 ] && [ "$(wc -l <"$u/.err")" = 1 ] || no "$impl: $bad not refused in one line (exit $st): $(cat "$u/.err")"
    done
    [ -z "$(ls -A "$u/t")" ] || no "$impl: wrote through the link"
    # directories above
    mkdir "$u/sticky" && chmod 1777 "$u/sticky"
    got=$($impl "$u/sticky/d") && [ -d "$u/sticky/d" ] || no "$impl: a new directory in a sticky 1777 one refused: $got"
    $impl "$u/open/d" >/dev/null 2>"$u/.err"; st=$?
    [ "$st" = 1 ] && grep -q "under $u/open (mode 0*777), writable by others" "$u/.err" && [ ! -e "$u/open/d" ] ||
        no "$impl: a new directory in a 0777 one not refused (exit $st): $(cat "$u/.err")"
    $impl "$u/open/x/y" >/dev/null 2>"$u/.err"; st=$?
    [ "$st" = 1 ] && [ ! -e "$u/open/x" ] || no "$impl: a path under a 0777 one not refused (exit $st): $(cat "$u/.err")"
    got=$($impl "$u/l/mine") && [ -d "$u/t/mine" ] || no "$impl: a new directory through one's own link refused: $got"
    rmdir "$u/t/mine" 2>/dev/null
    if [ "$root" = 1 ]; then
        mkdir -m 0755 "$u/t2" && ln -s "$u/t2" "$u/l2" && chown -h "$other" "$u/l2"
        $impl "$u/l2/new" >/dev/null 2>"$u/.err"; st=$?
        [ "$st" = 1 ] && grep -q "under $u/l2, owned by uid $other" "$u/.err" && [ -z "$(ls -A "$u/t2")" ] ||
            no "$impl: a link of nobody's above not refused (exit $st): $(cat "$u/.err")"
        mkdir -m 0775 "$u/g" && chgrp "$other" "$u/g"
        $impl "$u/g/new" >/dev/null 2>"$u/.err"; st=$?
        [ "$st" = 1 ] && grep -q "writable by group $other" "$u/.err" ||
            no "$impl: a directory above writable by another group not refused (exit $st): $(cat "$u/.err")"
        mkdir -m 0755 "$u/nob" && mkdir -m 0755 "$u/nob/in" && chown "$other" "$u/nob"
        $impl "$u/nob/in/new" >/dev/null 2>"$u/.err"; st=$?
        [ "$st" = 1 ] && grep -q "under $u/nob, owned by uid $other" "$u/.err" ||
            no "$impl: a directory above owned by nobody not refused (exit $st): $(cat "$u/.err")"
    fi
    if [ "$root" = 1 ]; then
        mkdir -m 0755 "$u/theirs" && chown "$other" "$u/theirs"
        $impl "$u/theirs" >/dev/null 2>"$u/.err"; st=$?
        [ "$st" = 1 ] && grep -q "owned by uid $other" "$u/.err" || no "$impl: nobody's directory not refused: $(cat "$u/.err")"
    fi
    rm -rf "${u:?}"/* "$u"/.err
done
theirs=" and another user's"; [ "$root" = 1 ] || theirs=" (another user's: skipped, not root)"
[ "$fail" = 0 ] && echo "test_script_outdirs: $n scripts refuse a link, a 0777 output directory or one inside it$theirs; claims-check.py's default is new; outdir.py and outdir.sh checked"
exit "$fail"
