#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_out_dirs.sh - the directories run, report and compare write into, as an
# attacker would set them up:
#   - a temporary-name symlink planted in the run directory (to a root-only
#     0600 file) is neither followed nor removed;
#   - an empty --out made by another user is refused, nothing written in it;
#   - `report R` with R/figures a symbolic link (as an archive may carry)
#     writes nothing through it and deletes nothing there; a file of the user's
#     in a real R/figures survives, though its name looks like a figure's;
#   - `report --anonymize --out DIR` into an existing DIR without --force is
#     refused and changes nothing in DIR; --force over a DIR muxprof did not
#     write is refused; --force over its own earlier copy works;
#   - `compare --out RUN_DIR` (a run directory) is refused without --force;
#   - four parallel runs into one new --out: exactly one succeeds, the others
#     exit 2 saying why; four with the default name take four directories;
#   - a dangling --out symlink is named as one;
#   - a symbolic link among the parents of --out (another user's
#     shared/reports -> a root-only directory) is refused for run, compare
#     and report --anonymize, nothing written through it.
#
#   test_out_dirs.sh MUXPROF FIXTURES
#
# Runs as root: makes a throw-away user (removed on exit).  Exit 77 where it
# cannot run (not root, no useradd or runuser).
set -uo pipefail

bin=${1:?usage: test_out_dirs.sh MUXPROF FIXTURES}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
fix=${2:?usage: test_out_dirs.sh MUXPROF FIXTURES}
skip() { echo "SKIP: $1"; exit 77; }
fails=0
ok() { echo "ok   $1"; }
no() { echo "FAIL $1"; fails=$((fails + 1)); }

[ "$(id -u)" = 0 ] || skip "needs root (the attacks are on a root run by another user)"
command -v useradd >/dev/null || skip "no useradd"
command -v runuser >/dev/null || skip "no runuser (util-linux)"

other=mpdirs$$
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mp-dirs-XXXXXX")
cleanup() {
  userdel "$other" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
chmod 0755 "$tmp"
useradd --no-create-home --shell /usr/sbin/nologin "$other" || skip "useradd $other failed"
as_other() { runuser -u "$other" -- "$@"; }

small=(--quick --backends poll --fds 10 --quiet)   # one run's worth of files, quickly
quick=(run "${small[@]}" --no-plots)
listing() { (cd "$1" && find . -printf '%p %s %y %l\n' | sort); }
secret=$tmp/secret
printf 'root only\n' >"$secret"
chmod 0600 "$secret"
secret_intact() { [ "$(cat "$secret")" = "root only" ]; }

# --- a temporary-name symlink planted in the run directory -----------------
# A second run with --force over the first; the shell's pid is muxprof's
# after exec, so the link takes the name of muxprof's first temporary file.
d=$tmp/planted
"$bin" "${quick[@]}" --out "$d" >/dev/null 2>&1 || no "the first run into $d failed"
sh -c 'ln -s "$1" "$2/.results.json.tmp.$$"; shift 2; exec "$@"' \
  sh "$secret" "$d" "$bin" "${quick[@]}" --force --out "$d" >"$tmp/planted.out" 2>&1
rc=$?
if secret_intact && [ -L "$d/.results.json.tmp."* ] && grep -q '"schema"' "$d/results.json" 2>/dev/null &&
   [ $rc = 0 ]; then
  ok "planted temporary-name symlink: not followed, left alone, results.json written beside it"
else
  no "planted temporary-name symlink: exit $rc, the secret file now starts: $(head -c 30 "$secret" | tr "\n\t" "  "); $(tail -1 "$tmp/planted.out")"
fi
printf 'root only\n' >"$secret"

# --- an empty --out of another user ----------------------------------------
foreign=$tmp/foreign
mkdir "$foreign" && chown "$other" "$foreign" && chmod 0777 "$foreign"
"$bin" "${quick[@]}" --out "$foreign" >/dev/null 2>"$tmp/foreign.err"
rc=$?
if [ $rc = 2 ] && [ -z "$(ls -A "$foreign")" ] && grep -q "belongs to $other" "$tmp/foreign.err"; then
  ok "another user's empty --out: refused, nothing written ($(cat "$tmp/foreign.err"))"
else
  no "another user's empty --out: exit $rc, holds '$(ls -A "$foreign" | tr '\n' ' ')': $(cat "$tmp/foreign.err")"
fi
"$bin" "${quick[@]}" --force --out "$foreign" >/dev/null 2>&1
rc=$?
[ $rc = 2 ] && [ -z "$(ls -A "$foreign")" ] && ok "... also with --force" ||
  no "another user's empty --out with --force: exit $rc"

# A group-writable directory of one's own: others could plant files in it.
gw=$tmp/groupw
mkdir "$gw" && chmod 0775 "$gw"
"$bin" "${quick[@]}" --out "$gw" >/dev/null 2>"$tmp/gw.err"
rc=$?
[ $rc = 2 ] && [ -z "$(ls -A "$gw")" ] && grep -q "chmod go-w" "$tmp/gw.err" &&
  ok "a group-writable --out: refused with what to do" ||
  no "a group-writable --out: exit $rc: $(cat "$tmp/gw.err")"

# --- a run to work on --------------------------------------------------------
run=$tmp/run
if ! "$bin" run "${small[@]}" --out "$run" >/dev/null 2>"$tmp/run.err"; then
  no "the quick run to work on failed: $(cat "$tmp/run.err")"
  exit 1
fi

# --- report R with R/figures a symbolic link ---------------------------------
docs=$tmp/docs
mkdir "$docs"
echo thesis >"$docs/cost_of_my_thesis.pdf"
echo notes >"$docs/ratio_notes.dat"
before=$(listing "$docs")
r=$tmp/archive
mkdir "$r" && cp "$run/results.json" "$r/" && ln -s "$docs" "$r/figures"
"$bin" report "$r" >/dev/null 2>"$tmp/link.err"
rc=$?
if [ $rc != 0 ] && [ "$(listing "$docs")" = "$before" ] && grep -q "symbolic link" "$tmp/link.err"; then
  ok "report R with R/figures -> elsewhere: refused, the link's target untouched"
else
  no "report R with R/figures a link: exit $rc; the target now: $(listing "$docs" | tr '\n' ' '): $(cat "$tmp/link.err")"
fi

# A real figures/ with a file of the user's that looks like a figure.
r2=$tmp/mine
mkdir -p "$r2/figures" && cp "$run/results.json" "$r2/"
echo mine >"$r2/figures/cost_of_my_thesis.pdf"
"$bin" report "$r2" >/dev/null 2>"$tmp/mine.err"
rc=$?
if [ $rc = 0 ] && [ "$(cat "$r2/figures/cost_of_my_thesis.pdf" 2>/dev/null)" = mine ] &&
   ls "$r2"/figures/cost_*.png >/dev/null 2>&1; then
  ok "report R: a file of the user's in R/figures survives (only what muxprof wrote is removed)"
else
  no "report R: exit $rc; cost_of_my_thesis.pdf is '$(cat "$r2/figures/cost_of_my_thesis.pdf" 2>&1)': $(cat "$tmp/mine.err")"
fi

# --- report --anonymize --out into an existing directory ---------------------
pub=$tmp/pub
mkdir -p "$pub/notes" && cp "$run/results.json" "$run/samples.csv" "$pub/"
echo "call $(hostname) back" >"$pub/notes/todo.txt"
before=$(cd "$pub" && find . -type f -exec md5sum {} + | sort)
"$bin" report "$run" --anonymize --out "$pub" >/dev/null 2>"$tmp/pub.err"
rc=$?
after=$(cd "$pub" && find . -type f -exec md5sum {} + | sort)
[ $rc = 2 ] && [ "$after" = "$before" ] && grep -q "not empty" "$tmp/pub.err" &&
  ok "report --anonymize --out EXISTING: refused, nothing in it changed" ||
  no "report --anonymize --out EXISTING: exit $rc, changed: $(diff <(echo "$before") <(echo "$after") | tr '\n' ' '): $(cat "$tmp/pub.err")"
"$bin" report "$run" --anonymize --out "$pub" --force >/dev/null 2>"$tmp/pubf.err"
rc=$?
after=$(cd "$pub" && find . -type f -exec md5sum {} + | sort)
[ $rc = 2 ] && [ "$after" = "$before" ] && grep -q "not written by muxprof" "$tmp/pubf.err" &&
  ok "... with --force too: not a directory muxprof wrote" ||
  no "report --anonymize --out EXISTING --force: exit $rc: $(cat "$tmp/pubf.err")"
"$bin" report "$run" --anonymize --out "$tmp/pub2" >/dev/null 2>&1 &&
  "$bin" report "$run" --anonymize --out "$tmp/pub2" --force >/dev/null 2>"$tmp/pub2.err" &&
  ok "report --anonymize --out: a new directory, then --force over that copy" ||
  no "report --anonymize --out NEW then --force: $(cat "$tmp/pub2.err")"

# --- compare --out onto a run directory --------------------------------------
sum=$(md5sum <"$run/report.md")
"$bin" compare "$fix/compare/hostA" "$fix/compare/hostB" --out "$run" --no-plots >/dev/null 2>"$tmp/cmp.err"
rc=$?
[ $rc = 2 ] && [ "$(md5sum <"$run/report.md")" = "$sum" ] && grep -q -- "--force" "$tmp/cmp.err" &&
  ok "compare --out RUN_DIR: refused, the run's report.md unchanged" ||
  no "compare --out RUN_DIR: exit $rc: $(cat "$tmp/cmp.err")"
# an input's own run directory is refused even with --force
"$bin" compare "$run" "$fix/compare/hostB" --out "$run" --force --no-plots >/dev/null \
  2>"$tmp/cmp2.err"
rc=$?
[ $rc = 2 ] && [ "$(md5sum <"$run/report.md")" = "$sum" ] &&
  grep -q "is the run directory of input 1" "$tmp/cmp2.err" &&
  ok "compare --out INPUT --force: refused, the input's report.md unchanged" ||
  no "compare --out INPUT --force: exit $rc: $(cat "$tmp/cmp2.err")"

# --- four parallel runs into one new --out ----------------------------------
par=$tmp/par
pids=()
for i in 1 2 3 4; do
  "$bin" "${quick[@]}" --out "$par" >"$tmp/par$i.out" 2>"$tmp/par$i.err" &
  pids+=($!)
done
wins=0 refused=0
for i in 1 2 3 4; do
  wait "${pids[$((i - 1))]}"
  case $? in
    0) wins=$((wins + 1)) ;;
    2) grep -q -- "--out: $par" "$tmp/par$i.err" && refused=$((refused + 1)) ;;
  esac
done
[ $wins = 1 ] && [ $refused = 3 ] && grep -q '"complete"' "$par/results.json" &&
  ok "four parallel runs into one new --out: one wrote it, three refused ($(cat "$tmp"/par*.err | head -1))" ||
  no "four parallel runs into one new --out: $wins succeeded, $refused refused with a message"

# The default name: each takes its own directory.
mkdir "$tmp/cwd"
pids=()
for i in 1 2 3 4; do
  (cd "$tmp/cwd" && exec "$bin" "${quick[@]}") >"$tmp/def$i.out" 2>&1 &
  pids+=($!)
done
wins=0
for p in "${pids[@]}"; do wait "$p" && wins=$((wins + 1)); done
dirs=$(find "$tmp/cwd/reports/runs" -mindepth 1 -maxdepth 1 -type d | wc -l)
[ $wins = 4 ] && [ "$dirs" = 4 ] && ok "four parallel runs with the default name: four directories" ||
  no "four parallel default runs: $wins succeeded, $dirs directories"

# --- a dangling --out symlink -------------------------------------------------
ln -s "$tmp/nowhere" "$tmp/dangling"
"$bin" "${quick[@]}" --out "$tmp/dangling" >/dev/null 2>"$tmp/dangling.err"
rc=$?
[ $rc = 2 ] && grep -q "symbolic link to $tmp/nowhere, which does not exist" "$tmp/dangling.err" &&
  [ ! -e "$tmp/nowhere" ] && ok "a dangling --out symlink: named as one ($(cat "$tmp/dangling.err"))" ||
  no "a dangling --out symlink: exit $rc: $(cat "$tmp/dangling.err")"
ln -s "$run" "$tmp/link"
"$bin" "${quick[@]}" --force --out "$tmp/link" >/dev/null 2>"$tmp/link2.err"
rc=$?
[ $rc = 2 ] && grep -q "is a symbolic link" "$tmp/link2.err" &&
  ok "an --out symlink to a run directory: refused, even with --force" ||
  no "an --out symlink to a directory: exit $rc: $(cat "$tmp/link2.err")"

# --- a link among the parents of --out, planted by another user ------------
# The other user's world-writable directory holds reports -> root's private
# directory: root's run, compare and anonymized copy must not land there.
target=$tmp/roottarget
mkdir -m 0700 "$target"
shared=$tmp/shared
mkdir -m 1777 "$shared"
as_other ln -s "$target" "$shared/reports" || no "the other user could not plant the link"
parent_refused() {   # parent_refused NAME CMD...: exit 2, the link named, nothing in target
  local name=$1
  shift
  "$@" >/dev/null 2>"$tmp/$name.err"
  local rc=$?
  if [ $rc = 2 ] && grep -q "$shared/reports is a symbolic link (to $target)" "$tmp/$name.err" &&
     [ -z "$(ls -A "$target")" ]; then
    ok "$name through a linked parent: refused ($(cat "$tmp/$name.err"))"
  else
    no "$name through a linked parent: exit $rc, target holds '$(ls -A "$target" | tr '\n' ' ')': $(cat "$tmp/$name.err")"
  fi
}
parent_refused run "$bin" "${quick[@]}" --out "$shared/reports/run"
parent_refused run-deeper "$bin" "${quick[@]}" --out "$shared/reports/a/b/run"
parent_refused compare "$bin" compare "$fix/compare/hostA" "$fix/compare/hostB" \
  --out "$shared/reports/cmp" --no-plots
parent_refused anonymize "$bin" report "$run" --anonymize --out "$shared/reports/pub" --no-plots
# the same path written without the link is taken
"$bin" "${quick[@]}" --out "$target/run" >/dev/null 2>"$tmp/direct.err" &&
  [ -f "$target/run/results.json" ] && ok "the directory named by its own path: written" ||
  no "the directory named by its own path: $(cat "$tmp/direct.err")"

[ $fails = 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "all checks passed"
