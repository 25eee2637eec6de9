#!/bin/sh
# SPDX-License-Identifier: MIT
# test_validate_host.sh MUXPROF SOURCE_DIR WORK_DIR - scripts/validate-host.sh
# with this build's muxprof and a stand-in for perf (PERF=), so the verdicts
# do not depend on timings:
#   - a perf that counts nothing per call: task-clock "differs" (muxprof's
#     per-call task-clock is never 0), the summary says so, exit 3;
#     page-faults (under 0.05 per call both ways) "agrees";
#   - no perf: every counter "not checked" naming why, exit 0; --run-args
#     reach both quick runs;
#   - usage errors exit 2; every file the summary points to is there;
#   - as root: OUTDIRs another user prepared (theirs, others can write it,
#     links in it, a link itself, under another user's link or directory or
#     one anyone may write, the guessable default name in a sticky directory)
#     refused or not used, root's files unchanged;
#   - all of it under dash when there is one (a POSIX shell, not bash: what
#     busybox ash on a bare host or the arm64 guest runs is POSIX sh too), and
#     shellcheck -s sh finds nothing where shellcheck is installed.
bin=${1:?usage: test_validate_host.sh MUXPROF SOURCE_DIR WORK_DIR}
src=${2:?usage}
work=${3:?usage}
vh=$src/scripts/validate-host.sh
fail() { echo "FAIL: test_validate_host: $*" >&2; exit 1; }
psh=$(command -v dash || echo sh)
rm -rf "$work" && mkdir -p "$work" || exit 1
if command -v shellcheck >/dev/null 2>&1; then
    shellcheck -s sh "$vh" >"$work/shellcheck.txt" 2>&1 || fail "shellcheck -s sh: $(head -n 20 "$work/shellcheck.txt")"
fi

# A perf whose counts are the same for K and 2K calls: 0 per call.  It counts
# only when asked for the calling process alone (-i, --no-inherit), as
# validate-host must ask: an inherited count takes in loop's descriptor helper.
cat >"$work/perf" <<'PERF'
#!/bin/sh
ev= inherit=1
while [ $# -gt 0 ]; do case $1 in -e) ev=$2; shift 2 ;; -i|--no-inherit) inherit=0; shift ;;
                                  --) shift; break ;; *) shift ;; esac; done
"$@" >/dev/null 2>&1
[ "$inherit" = 0 ] || { echo "<not counted>,,$ev,0,0.00,," >&2; exit 0; }
case $ev in task-clock*) echo "5.00,msec,task-clock,5000000,100.00,," >&2 ;;
            *) echo "7,,$ev,5000000,100.00,," >&2 ;; esac
PERF
chmod +x "$work/perf"
PERF=$work/perf "$psh" "$vh" --muxprof "$bin" --fds 100 --calls 200 "$work/a" >"$work/a.out" 2>&1
rc=$?
[ "$rc" = 3 ] || fail "a perf that counts 0 per call: exit $rc, not 3: $(tail -n 20 "$work/a.out")"
grep -q '^task-clock .* differs: ' "$work/a/summary.txt" || fail "task-clock not 'differs': $(cat "$work/a/summary.txt")"
grep -q '^page-faults .* agrees' "$work/a/summary.txt" || fail "page-faults not 'agrees': $(cat "$work/a/summary.txt")"
grep -q 'DIFFER between muxprof and perf stat' "$work/a/summary.txt" || fail "no DIFFER verdict line"
cmp -s "$work/a/summary.txt" "$work/a.out" || fail "what it printed is not summary.txt"
for f in doctor.txt events-cache.txt events-tlb.txt run-cache.txt run-tlb.txt perf.txt \
         run-cache/results.json run-tlb/results.json; do
    [ -s "$work/a/$f" ] || fail "no $f in the output directory"
done
grep -q 'perf stat -i -e task-clock (--calls 400)' "$work/a/perf.txt" || fail "perf.txt lacks the 2K run"

# An OUTDIR holding files validate-host did not write is refused, its files untouched.
mkdir -p "$work/c" && echo mine >"$work/c/summary.txt"
PERF=$work/perf "$psh" "$vh" --muxprof "$bin" --fds 100 --calls 200 "$work/c" >"$work/c.out" 2>&1
rc=$?
[ "$rc" = 2 ] || fail "an OUTDIR validate-host did not write: exit $rc, not 2: $(tail -n 5 "$work/c.out")"
[ "$(cat "$work/c/summary.txt")" = mine ] || fail "a file in an OUTDIR validate-host did not write was replaced"
grep -q 'validate-host did not write it' "$work/c.out" || fail "no message naming why OUTDIR was refused"

# OUTDIRs another user could have prepared (as root, with a user of no
# privilege, nobody): a directory of theirs holding a marker and links to
# root's files; root's own marked directory that others can write, or that
# holds a link; OUTDIR itself a link; the predictable default name planted in
# the current directory.  Each is refused (exit 2, one line) with root's
# files unchanged, or (the default) not used at all.
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 && command -v su >/dev/null 2>&1; then
    h=$(mktemp -d /tmp/mp-vh-XXXXXX) && chmod 0755 "$h" || exit 1
    as_nobody() { su -s /bin/sh nobody -c "$1"; }
    echo "root's file" >"$h/victim"; chmod 0600 "$h/victim"
    mkdir "$h/theirs" && chown nobody "$h/theirs"
    as_nobody "cd $h/theirs && : >.validate-host && ln -s $h/victim doctor.txt &&
               ln -s $h/victim summary.txt.tmp && ln -s $h/victim .rows" ||
        fail "nobody could not plant links in $h/theirs"
    refused() {  # refused WHY OUTDIR [ARGS...]: exit 2 saying WHY, the victim unchanged
        r_why=$1; shift
        PERF=/nonexistent "$psh" "$vh" --muxprof "$bin" --fds 100 --calls 200 "$@" >"$h/out" 2>&1
        r_rc=$?
        [ "$r_rc" = 2 ] || fail "OUTDIR $1: exit $r_rc, not 2: $(tail -n 5 "$h/out")"
        grep -q -- "$r_why" "$h/out" || fail "OUTDIR $1: no '$r_why' in: $(cat "$h/out")"
        [ "$(wc -l <"$h/out")" = 1 ] || fail "OUTDIR $1: more than one line: $(cat "$h/out")"
        [ "$(cat "$h/victim")" = "root's file" ] || fail "OUTDIR $1: root's file was written through a link"
    }
    refused "owned by uid" "$h/theirs"
    mkdir -m 0755 "$h/open" && : >"$h/open/.validate-host" && chmod 0777 "$h/open"
    refused "writable by its group or by others" "$h/open"
    mkdir -m 0755 "$h/linked" && : >"$h/linked/.validate-host" && ln -s "$h/victim" "$h/linked/perf.txt"
    refused "holds a symbolic link" "$h/linked"
    mkdir -m 0755 "$h/hard" && : >"$h/hard/.validate-host" && ln "$h/victim" "$h/hard/doctor.txt"
    refused "hard link" "$h/hard"
    mkdir -m 0755 "$h/mine" && ln -s "$h/mine" "$h/link"
    refused "is a symbolic link" "$h/link"
    # Above OUTDIR: another user's link (in a sticky directory, as /tmp is),
    # another user's directory, a directory anyone may write: none is used.
    mkdir -m 0755 "$h/target" && mkdir -m 1777 "$h/drop"
    as_nobody "ln -s $h/target $h/drop/plink" || fail "nobody could not plant $h/drop/plink"
    refused "lies under $h/drop/plink, owned by uid" "$h/drop/plink/new"
    [ ! -e "$h/target/new" ] || fail "OUTDIR under another user's link: $h/target/new was made"
    as_nobody "mkdir $h/drop/pdir" || fail "nobody could not make $h/drop/pdir"
    refused "lies under $h/drop/pdir, owned by uid" "$h/drop/pdir/new"
    mkdir -m 0777 "$h/open2"
    refused "lies under $h/open2 (mode drwxrwxrwx), writable by others" "$h/open2/new"
    [ ! -e "$h/open2/new" ] || fail "OUTDIR under a directory anyone may write: it was made"
    # The default OUTDIR outside a source tree: the guessable name is not used.
    mkdir "$h/copy" "$h/cwd" && cp "$vh" "$h/copy/validate-host.sh" && chmod 1777 "$h/cwd"
    guess=$h/cwd/muxprof-validation-$(hostname -s 2>/dev/null || uname -n)-$(date -u +%Y%m%d)
    as_nobody "mkdir $guess && cd $guess && : >.validate-host && ln -s $h/victim doctor.txt &&
               ln -s $h/victim summary.txt.tmp" || fail "nobody could not plant $guess"
    (cd "$h/cwd" && PERF=/nonexistent "$psh" "$h/copy/validate-host.sh" --muxprof /bin/false \
        >"$h/out" 2>&1)
    [ "$(cat "$h/victim")" = "root's file" ] || fail "the default OUTDIR: root's file was written through a planted link"
    set -- "$guess".??????/summary.txt
    [ -f "$1" ] || fail "the default OUTDIR is not a new $guess.XXXXXX: $(ls "$h/cwd"): $(tail -n 3 "$h/out")"
    rm -rf "$h"
fi

PERF=/nonexistent/perf "$psh" "$vh" --muxprof "$bin" --fds 100 --calls 200 \
    --run-args '--backends poll --mode ready' "$work/b" >"$work/b.out" 2>&1
rc=$?
[ "$rc" = 0 ] || fail "without perf: exit $rc, not 0: $(tail -n 20 "$work/b.out")"
grep -q '^task-clock .* not checked: perf is not installed' "$work/b/summary.txt" ||
    fail "without perf, task-clock is not 'not checked: perf is not installed'"
grep -q 'no second method' "$work/b/summary.txt" || fail "the summary does not say there was no second method"
! grep -q ' agrees\| differs' "$work/b/summary.txt" || fail "a verdict without perf"
# --run-args reach both quick runs: poll only, ready only.
for p in cache tlb; do
    [ -s "$work/b/run-$p/results.csv" ] || fail "no run-$p/results.csv with --run-args"
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
             $col["backend"] != "poll" || $col["mode"] != "ready" {bad = 1} END {exit bad}' "$work/b/run-$p/results.csv" ||
        fail "--run-args '--backends poll --mode ready' did not reach the $p run: $(cut -d, -f2,4 "$work/b/run-$p/results.csv" | sort -u | tr '\n' ' ')"
done
"$psh" "$vh" --run-args '--fds *' "$work/c" >/dev/null 2>&1; [ $? = 2 ] || fail "a wildcard in --run-args is not a usage error (2)"

"$psh" "$vh" --calls x >/dev/null 2>&1; [ $? = 2 ] || fail "--calls x is not a usage error (2)"
"$psh" "$vh" --bogus >/dev/null 2>&1; [ $? = 2 ] || fail "--bogus is not a usage error (2)"
"$psh" "$vh" --muxprof /nonexistent "$work/c" >/dev/null 2>&1; [ $? = 1 ] || fail "a missing muxprof is not exit 1"
[ -n "${VH_KEEP:-}" ] || rm -rf "$work"
echo "validate-host under $psh: differs -> exit 3, no perf -> not checked, usage -> 2"
