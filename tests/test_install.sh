#!/bin/sh
# SPDX-License-Identifier: MIT
# test_install.sh BUILD_DIR WORK_DIR - `cmake --install` into a scratch
# prefix, then the installed tree file by file: the binary runs and says
# its version, the manual page (gzip'd) has every verb and every run option that
# --help lists, and the bash completion completes verbs, options, backends,
# comma lists, placements, presets and reference names.
set -eu
build=$1
work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/p" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; fail "cmake --install"; }
p=$work/p
bin=$p/bin/muxprof
mangz=$p/share/man/man1/muxprof.1.gz
comp=$p/share/bash-completion/completions/muxprof
for f in "$bin" "$mangz" "$comp" "$p/share/doc/muxprof/copyright"; do
  [ -s "$f" ] || fail "$f not installed"
done
# The manual page is gzip'd without a name or a time in its header (gzip -n).
[ "$(od -An -tx1 -j3 -N5 "$mangz" | tr -d ' ')" = 0000000000 ] ||
  fail "$mangz has a name or a time in its gzip header (not gzip -n)"
man=$work/muxprof.1
gzip -dc "$mangz" >"$man" || fail "$mangz does not decompress"
[ -x "$bin" ] || fail "$bin not executable"
"$bin" --version | grep -q '^muxprof [0-9][0-9.]* (git ' || fail "installed --version"

# The manual page: a man page, every verb, every run option.
head -2 "$man" | grep -q '^\.TH MUXPROF 1 ' || fail "no .TH header in $man"
for v in $("$bin" --help | sed -n '/^verbs:/,/^$/p' | awk 'NF > 1 {print $1}'); do
  if [ "$v" = run ]; then   # its options are the formatted RUN OPTIONS, once
    ! grep -q "^\.SH MUXPROF run\$" "$man" || fail "run's options twice in $man"
  else
    grep -q "^\.SH MUXPROF $v\$" "$man" || fail "verb $v missing from $man"
  fi
  grep -q "^\.B $v\$" "$man" || fail "verb $v missing from VERBS in $man"
done
n=0
for o in $("$bin" run --help | grep -o '^  --[a-z-]*'); do
  name=${o#--}
  grep -q "^\.B \\\\-\\\\-$(echo "$name" | sed 's/-/\\\\-/g')" "$man" ||
    fail "run option $o missing from $man"
  n=$((n + 1))
done
[ "$n" -ge 15 ] || fail "only $n run options found in run --help"
grep -q '130 interrupted' "$man" || fail "exit codes missing from $man"
grep -q '^\.SH EXAMPLES$' "$man" || fail "no EXAMPLES in $man"
grep -q 'muxprof compare before after' "$man" || fail "no before/after example in $man"
# The guides it points to are installed with it.
for d in README.md docs/methodology.md docs/results-schema.md docs/compare.md; do
  [ -s "$p/share/doc/muxprof/$d" ] || fail "$d not installed in share/doc/muxprof"
done
grep -q 'share/doc/muxprof' "$man" || fail "$man does not say where the guides are"
if command -v groff >/dev/null 2>&1; then
  groff -man -Tutf8 -ww "$man" >"$work/man.txt" 2>"$work/groff.err" || fail "groff"
  [ ! -s "$work/groff.err" ] || { cat "$work/groff.err" >&2; fail "groff warnings"; }
fi

# The completion: COMPREPLY for a command line, through bash.
complete_line() {
  bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _muxprof;
           printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' _ "$comp" "$@"
}
expect() {
  want=$1
  shift
  got=$(complete_line "$@")
  case " $got" in
    *" $want "*) ;;
    *) fail "completing '$*': expected '$want' in '$got'" ;;
  esac
}
expect run muxprof r
expect report muxprof r
expect doctor muxprof d
expect --version muxprof --v
expect --backends muxprof run --ba
expect --quiet muxprof run --qu
expect epoll-et muxprof run --backends ep
expect poll,epoll muxprof run --backends poll,ep
expect same-l3 muxprof run --placement same
expect cache muxprof run --events ca
expect wakeup muxprof run --mode w
expect socketpair muxprof run --fd-kind s
expect herd muxprof run --experiment h
expect epyc-9354p muxprof compare ep
expect --label muxprof compare --la
expect --json muxprof doctor --j
expect --json muxprof events --j
expect cache muxprof events --events c
[ -z "$(complete_line muxprof run --samples '' | tr -d ' ')" ] || fail "--samples should offer nothing"
expect epoll muxprof loop --backend ep
expect eventfd muxprof loop --fd-kind ev
# A comma list goes on after a value: no space is added after it; a single value gets one.
nospace() {
  bash -c 'compopt() { echo "compopt $*" >&3; }; . "$1"; shift; COMP_WORDS=("$@");
           COMP_CWORD=$(($# - 1)); _muxprof' _ "$comp" "$@" 3>&1 >/dev/null 2>&1
}
nospace muxprof run --backends se | grep -q -- '-o nospace' || fail "--backends adds a space"
nospace muxprof run --mode re | grep -q -- '-o nospace' || fail "--mode adds a space"
! nospace muxprof run --placement sa | grep -q -- 'nospace' || fail "--placement lacks its space"
# Only the options a verb takes.
got=$(complete_line muxprof topology --)
case " $got" in *" --placement "*|*" --of "*) fail "topology offers options it rejects: $got" ;; esac
rm -rf "$work"
echo "installed tree checked: $bin, $man, $comp"
