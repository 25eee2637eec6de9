#!/bin/sh
# SPDX-License-Identifier: MIT
# validate-host.sh - the check to run on a host before trusting its numbers
# (bare metal, or a VM with a virtual PMU): what the host offers, a quick run
# with the cache preset and one with the TLB preset, and, where perf is
# installed, every counter muxprof opened measured a second way, by perf stat
# around `muxprof loop`, with a verdict per counter.  Needs no build tools: it
# runs from a bundle (scripts/bundle.sh puts it at the bundle's top), from the
# Debian package, or from a built tree.
#
#   validate-host.sh [--muxprof PATH] [--backend B] [--fds N] [--calls K]
#                    [--tolerance PCT] [--run-args 'ARGS'] [OUTDIR]
#
# --run-args: more `muxprof run` arguments for the two quick runs, one string
# split at blanks (e.g. '--backends poll,epoll --mode ready' on a slow or
# emulated host); the cell the counters are compared on (--backend, --fds,
# pipe, ready) must stay in the run.
# muxprof: --muxprof, else $MUXPROF, else the bundle this script sits in
# (./bin/muxprof), else a built tree's build/bin/muxprof, else muxprof on PATH.
# OUTDIR: default docs/validation/HOST-DATE in a source tree, else a new
# ./muxprof-validation-HOST-DATE.XXXXXX (mktemp -d: a name no one can plant
# ahead).  A directory validate-host creates, or an existing one of the
# caller's that its group and others cannot write, holding no symbolic or hard
# links, and empty or written by validate-host before (marked by
# .validate-host); anything else is refused (exit 2).  Everything printed
# goes there: doctor.txt, events-cache.txt, events-tlb.txt, run-cache.txt and
# run-cache/, run-tlb.txt and run-tlb/, perf.txt (each perf stat line), and
# summary.txt, which is also printed.
#
# The second method: for each counter muxprof opened, `perf stat -i -e EVENT --
# muxprof loop --backend B --fds N --calls K`, then with 2K calls, each three
# times; (median at 2K - median at K) / K is perf's count per call, setup and exit
# cancelled.  Beside it muxprof's per-call mean of the same cell (B, pipe, ready,
# N) from the quick run.  Verdict: "agrees" when the two differ by at most PCT
# percent of the larger [25], or both are under 0.05 per call; "differs"
# otherwise; "not checked" with the reason (muxprof could not open it, perf is
# missing or cannot count it).  Defaults: --backend poll --fds 1000 --calls 20000.
# The two methods count different things at the edges: muxprof subtracts its
# empty read bracket and counts one call at a time; perf counts the loop around
# K calls; the tolerance is for that and for a loaded machine.  -i
# (--no-inherit): perf counts only the process that makes the calls, as
# muxprof counts only the calling thread, not loop's descriptor helper, whose
# fork and exit cost a varying amount (tens of millions of instructions in the
# emulated arm64 guest) that K and 2K do not cancel.
#
# It is POSIX sh (dash, busybox ash, bash) and uses only timeout, awk, sed,
# sort, date, mkdir, mktemp, find and ls beside muxprof and perf, so it runs
# on a host that has a shell and nothing else installed (a minimal image,
# busybox).
# Environment: MUXPROF (the program, as --muxprof), PERF (the perf program [perf]).
# Exit status: 0 no counter differs, 3 some counter differs, 1 a step failed
# (muxprof not found, a run failed or took too long), 2 usage.  A whole check
# takes under 3 minutes: each step is bounded by timeout, and no perf stat is
# started after 150 s (the counters left are "not checked" with that reason).
set -u
here=$(cd "$(dirname "$0")" && pwd)
usage() { sed -n '2,/^set -u$/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
bad() { echo "validate-host: $* (see --help)" >&2; exit 2; }
positive() { case $1 in ''|0*|*[!0-9]*) return 1 ;; esac; }
bin=${MUXPROF:-} backend=poll fds=1000 calls=20000 tol=25 out='' run_args=''
while [ $# -gt 0 ]; do
  case $1 in
    --muxprof) [ $# -ge 2 ] || bad "--muxprof needs a path"; bin=$2; shift 2 ;;
    --backend) [ $# -ge 2 ] || bad "--backend needs a name"; backend=$2; shift 2 ;;
    --fds) positive "${2:-}" || bad "--fds needs a positive number"; fds=$2; shift 2 ;;
    --calls) positive "${2:-}" || bad "--calls needs a positive number"; calls=$2; shift 2 ;;
    --run-args) [ $# -ge 2 ] || bad "--run-args needs a string of run arguments"
                case $2 in *[\*?[]*) bad "--run-args: no wildcards (* ? [) in '$2'" ;; esac
                run_args=$2; shift 2 ;;
    --tolerance) case ${2:-} in ''|.*|*.|*.*.*|*[!0-9.]*) bad "--tolerance needs a percentage" ;; esac
                 tol=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    -*) bad "unknown option $1" ;;
    *) [ -z "$out" ] || bad "one OUTDIR only (got $out and $1)"; out=$1; shift ;;
  esac
done
if [ -z "$bin" ]; then
  if [ -x "$here/bin/muxprof" ] && [ -e "$here/libexec/muxprof" ]; then bin=$here/bin/muxprof
  elif [ -x "$here/../build/bin/muxprof" ]; then bin=$here/../build/bin/muxprof
  else bin=$(command -v muxprof || true)
  fi
fi
if [ -z "$bin" ] || [ ! -x "$bin" ]; then
  echo "validate-host: no muxprof found: unpack a bundle (scripts/bundle.sh) and run its" \
       "validate-host.sh, install the package, or give --muxprof PATH" >&2; exit 1
fi
host=$(hostname -s 2>/dev/null || uname -n)
# Paths given relative are made absolute: the script works from inside OUTDIR.
abs() { case $1 in /*|'') echo "$1" ;; */*) echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" ;; *) echo "$1" ;; esac; }
bin=$(abs "$bin")
perf=$(abs "${PERF:-perf}")
made=""
if [ -z "$out" ]; then
  if [ -f "$here/../CMakeLists.txt" ] && [ -d "$here/../docs/validation" ]; then
    out=$here/../docs/validation/$host-$(date -u +%Y%m%d)
  else
    # A name others cannot guess ahead and plant: the current directory may be /tmp.
    out=$(mktemp -d "$PWD/muxprof-validation-$host-$(date -u +%Y%m%d).XXXXXX") ||
      { echo "validate-host: cannot create a directory in $PWD: give OUTDIR" >&2; exit 1; }
    chmod 0755 "$out"
    made=1
  fi
fi
# OUTDIR is made here (mkdir, never an existing one), or is an existing
# directory of the caller's that no one else can write, holding no symbolic
# or hard links; the script then works inside it (cd), so a directory above
# it renamed meanwhile changes nothing.  A directory that holds anything
# validate-host did not write is left alone: its files are replaced only
# where .validate-host marks the directory as ours.
refuse() { echo "validate-host: OUTDIR $out $*: give a new OUTDIR (validate-host creates it)" >&2; exit 2; }
while :; do case $out in */) [ "$out" = / ] && break; out=${out%/} ;; *) break ;; esac; done
# Every directory above OUTDIR, as written and as reached (pwd -P), is owned
# by root or the caller and writable by no one else, a sticky one (/tmp)
# excepted, where no one can replace another's entry; a symbolic link on
# the way must be root's or the caller's too (fs.protected_symlinks may be
# 0, and it never covers a link in the middle of a path).  Checked before
# the directories are made and again from inside OUTDIR, so that one
# swapped in meanwhile is seen.
me=$(id -u) mygid=$(id -g)
check_dir() {   # check_dir PATH: PATH (a directory or a link) passes, or refuse
  c_path=$1
  # shellcheck disable=SC2012,SC2046  # ls -ldn: mode, owner, group in POSIX sh
  set -- $(ls -ldn "$1")
  case $3 in 0|"$me") ;; *) refuse "lies under $c_path, owned by uid $3" ;; esac
  case $1 in l*) return 0 ;; esac
  case $1 in *t|*T) return 0 ;; esac   # sticky
  case $1 in ????????w*) refuse "lies under $c_path (mode $1), writable by others" ;; esac
  case $1 in ?????w*) case $4 in 0|"$mygid") ;; *) refuse "lies under $c_path (mode $1), writable by group $4" ;; esac ;; esac
}
check_above() {   # check_above PATH: each existing directory above PATH (PATH itself not)
  case $1 in /*) c_rest=${1#/} ;; *) c_rest=${PWD#/}/$1 ;; esac
  c_at=""
  check_dir /
  while :; do
    case $c_rest in */*) c_c=${c_rest%%/*}; c_rest=${c_rest#*/} ;; *) break ;; esac
    [ -n "$c_c" ] || continue
    c_at=$c_at/$c_c
    [ -e "$c_at" ] || [ -L "$c_at" ] || break
    check_dir "$c_at"
  done
}
case $out in /*) out_abs=$out ;; *) out_abs=$PWD/$out ;; esac
check_above "$out_abs"
if [ -z "$made" ] && [ ! -e "$out" ] && [ ! -L "$out" ]; then
  if ! { mkdir -p "$(dirname "$out")" && mkdir -m 0755 "$out"; }; then
    echo "validate-host: cannot create $out" >&2; exit 1
  fi
  made=1
fi
[ ! -L "$out" ] || refuse "is a symbolic link"
[ -d "$out" ] || refuse "is not a directory"
cd "$out" || { echo "validate-host: cannot enter $out" >&2; exit 1; }
check_above "$out_abs"
check_above "$(pwd -P)"
# shellcheck disable=SC2012,SC2046  # ls -ldn: mode, links, uid: the owner and mode in POSIX sh
set -- $(ls -ldn .)
case $3 in "$(id -u)") ;; *) refuse "is owned by uid $3, not by you (uid $(id -u))" ;; esac
case $1 in ?????w*|????????w*) refuse "(mode $1) is writable by its group or by others" ;; esac
if [ -z "$made" ] && [ -n "$(ls -A . 2>/dev/null)" ] && [ ! -f .validate-host ]; then
  echo "validate-host: $out is not empty and validate-host did not write it: give a new or" \
       "empty OUTDIR" >&2; exit 2
fi
l=$(find . -type l -print | head -n 1)
[ -z "$l" ] || refuse "holds a symbolic link ($l)"
l=$(find . ! -type d -links +1 -print | head -n 1)
[ -z "$l" ] || refuse "holds a file with more than one hard link ($l)"
out=$(pwd)
rm -f summary.txt summary.txt.tmp perf.txt .rows .opened
: >.validate-host
start=$(date +%s)
elapsed() { echo $(($(date +%s) - start)); }
failed=""
step() {   # step SECONDS FILE CMD...: CMD's output appended to FILE, bounded
  st_limit=$1 st_file=$2 st_rc=0
  shift 2
  st_cmd="$*"
  echo "\$ ${st_cmd#"$bin "}" >>"$st_file"
  # -k: KILL 5 s after the TERM; GNU timeout exits 124 on the TERM, busybox 143.
  timeout -k 5 "$st_limit" "$@" </dev/null >>"$st_file" 2>&1 || st_rc=$?
  case $st_rc in 124|137|143) echo "(stopped after $st_limit s)" >>"$st_file" ;; esac
  return "$st_rc"
}

# 1. What the host offers ---------------------------------------------------------
{
  echo "# muxprof validation on $host, $(date -u +%FT%TZ)"
  echo "\$ uname -a"; uname -a
} >"./doctor.txt"
step 20 "./doctor.txt" "$bin" --version || failed="$failed --version"
step 30 "./doctor.txt" "$bin" doctor   # exit 1 means "items to fix", not a failure
step 30 "./doctor.txt" "$bin" topology || failed="$failed topology"
: >"./events-cache.txt"; : >"./events-tlb.txt"
step 30 "./events-cache.txt" "$bin" events --events cache || failed="$failed events-cache"
step 30 "./events-tlb.txt" "$bin" events --events tlb || failed="$failed events-tlb"

# 2. A quick run with each preset --------------------------------------------------
for p in cache tlb; do
  : >"./run-$p.txt"
  # shellcheck disable=SC2086  # run_args: split at blanks, as documented (no wildcards)
  # --settle-max 15s: a busy host gets a short wait for quiet, inside the step's bound
  if ! step 75 "./run-$p.txt" "$bin" run --quick --settle-max 15s --events $p $run_args \
      --out "./run-$p" --force; then
    failed="$failed run-$p"
  fi
done

# 3. The counters muxprof opened, measured by perf stat ------------------------------
# events --events P prints one row per counter: metric status pass type config scope ...
opened() { awk '$1 != "metric" && NF >= 6 && ($2 == "opened" || $2 == "unavailable") &&
                $4 ~ /^[0-9]+$/ && $5 ~ /^0x/ {print $1, $2, $4, $5, $6}' "$1"; }
why_not() {  # the "why:" line under metric $2 in events file $1
  awk -v m="$2" '$1 == m {f = 1; next} f && $1 == "why:" {sub(/^ *why: */, ""); print; exit}
                 f {exit}' "$1"
}
perf_name() {  # TYPE CONFIG SCOPE ENCODING: perf stat's name for the event, or nothing
  t=$1 c=$2 n="" u=""
  [ "$3" = user ] && u=u
  case $t in
    0) n=$(echo "cycles instructions cache-references cache-misses branches branch-misses bus-cycles stalled-cycles-frontend stalled-cycles-backend ref-cycles" |
           awk -v i=$((c)) '{print $(i + 1)}') ;;
    1) n=$(echo "cpu-clock task-clock page-faults context-switches cpu-migrations minor-faults major-faults" |
           awk -v i=$((c)) '{print $(i + 1)}') ;;
    3) n=$4 ;;
    *) for d in /sys/bus/event_source/devices/*; do
         [ "$(cat "$d/type" 2>/dev/null)" = "$t" ] && { echo "$(basename "$d")/config=$c/$u"; return; }
       done
       # PERF_TYPE_RAW (4) with no PMU of that number in sysfs (Arm: the core
       # PMU has its own number): perf's rNNN is the same raw encoding.
       [ "$t" = 4 ] && echo "r${c#0x}${u:+:$u}"
       return ;;
  esac
  [ -n "$n" ] && echo "$n${u:+:$u}"
}
perf_ok=""
if ! command -v "$perf" >/dev/null 2>&1; then
  perf_why="perf is not installed (Debian: apt-get install linux-perf)"
elif ! timeout 20 "$perf" stat -i -x, -e task-clock -- true >/dev/null 2>"./perf.txt"; then
  perf_why="perf stat does not run here: $(head -n 1 "./perf.txt")"
else
  perf_ok=1
fi
perf_count() {  # EVENT CALLS: perf stat's count (task-clock in ns), or nothing
  line=$(timeout -k 5 60 "$perf" stat -i -x, -e "$1" -- "$bin" loop --backend "$backend" --fds "$fds" \
             --quiet --calls "$2" 2>&1 >/dev/null </dev/null |
         awk -F, 'NF >= 3 && $3 != "" {print; exit}')
  echo "perf stat -i -e $1 (--calls $2): $line" >>"./perf.txt"
  v=${line%%,*}
  case $v in ''|*'<'*) return ;; esac
  case $line in *,msec,*) awk -v v="$v" 'BEGIN {printf "%.6g\n", v * 1e6}' ;; *) echo "$v" ;; esac
}
median3() { printf '%s\n' "$@" | sort -g | awk '$1 != "" {a[++n] = $1} END {if (n == 3) print a[2]}'; }
mean_of() {  # RUNDIR METRIC: muxprof's per-call mean for the cell
  awk -F, -v b="$backend" -v n="$fds" -v m="$2" '
      NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
      $col["backend"] == b && $col["fd_kind"] == "pipe" && $col["mode"] == "ready" &&
      $col["nfds"] == n && $col["metric"] == m {print $col["mean"]; exit}' \
      "$1/results.csv" 2>/dev/null
}
n_agree=0 n_differ=0 n_unchecked=0 seen=" "
for p in cache tlb; do
  opened "./events-$p.txt" >"./.opened"
  while read -r name status type config scope; do
    case $seen in *" $name "*) continue ;; esac
    seen="$seen$name "
    m="" q="" verdict=""
    if [ "$status" != opened ]; then
      verdict="not checked: muxprof could not open it: $(why_not "./events-$p.txt" "$name")"
    else
      m=$(mean_of "./run-$p" "$name")
      ev=$(perf_name "$type" "$config" "$scope" "$name")
      if [ -z "$m" ]; then verdict="not checked: the $p run has no value for the cell ($backend, N=$fds, ready)"
      elif [ -z "$perf_ok" ]; then verdict="not checked: $perf_why"
      elif [ -z "$ev" ]; then verdict="not checked: no perf stat name for type $type config $config"
      elif [ "$(elapsed)" -gt 150 ]; then verdict="not checked: the 3 minutes were spent"
      else
        a="" b=""
        for _ in 1 2 3; do
          a="$a $(perf_count "$ev" "$calls")"
          b="$b $(perf_count "$ev" $((2 * calls)))"
        done
        # shellcheck disable=SC2086  # a and b: three numbers each (or fewer when perf counted nothing)
        ka=$(median3 $a) kb=$(median3 $b)
        if [ -z "$ka" ] || [ -z "$kb" ]; then
          verdict="not checked: perf stat -e $ev did not count it (perf.txt)"
        else
          q=$(awk -v a="$ka" -v b="$kb" -v k="$calls" 'BEGIN {printf "%.4g\n", (b - a) / k}')
          verdict=$(awk -v m="$m" -v q="$q" -v t="$tol" 'BEGIN {
              am = m < 0 ? -m : m; aq = q < 0 ? -q : q; big = am > aq ? am : aq
              d = m - q; if (d < 0) d = -d
              if (big < 0.05) print "agrees (both under 0.05 per call)"
              else if (d <= t / 100 * big) printf "agrees within %.0f%% (%.1f%% apart)\n", t, 100 * d / big
              else printf "differs: %.1f%% apart, more than %.0f%%\n", 100 * d / big, t }')
        fi
      fi
    fi
    case $verdict in agrees*) n_agree=$((n_agree + 1)) ;; differs*) n_differ=$((n_differ + 1)) ;;
                     *) n_unchecked=$((n_unchecked + 1)) ;; esac
    printf '%-24s %-7s %14s %14s  %s\n' "$name" "$p" "${m:--}" "${q:--}" "$verdict" >>"./.rows"
  done <"./.opened"
done
rm -f "./.opened"

# 4. The summary --------------------------------------------------------------------
cpu=$(awk -F': *' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null)
[ -n "$cpu" ] || cpu=$(awk -F': *' '/^CPU implementer/ {i = $2} /^CPU part/ {p = $2}
                        END {if (i) print "Arm implementer " i " part " p}' /proc/cpuinfo 2>/dev/null)
nohw=$(grep -q 'no hardware PMU' "./events-cache.txt" && echo 1)
{
  echo "muxprof validation on $host ($cpu), $(uname -sr) $(uname -m), $(date -u +%FT%TZ)"
  echo "muxprof: $("$bin" --version 2>&1 | head -n 1) ($bin)"
  echo
  echo "What was checked:"
  echo "  - doctor, topology, and how the cache and tlb presets resolve here (doctor.txt, events-*.txt);"
  echo "  - a quick run with each preset (run-cache/, run-tlb/): $([ -z "$failed" ] && echo "both completed" || echo "FAILED:$failed")"
  if [ -n "$nohw" ]; then
    echo "  - this host has no hardware PMU (a VM without a virtual PMU): only software counters"
    echo "    (task-clock, context switches, migrations, page faults) can be checked; no hardware"
    echo "    count of this host is checked, so hardware counts from here are not to be trusted;"
  fi
  if [ -n "$perf_ok" ]; then
    echo "  - each counter muxprof opened, counted a second way: perf stat -i (the calling process"
    echo "    only, as muxprof counts) around muxprof loop ($backend, $fds pipe fds, one ready)"
    echo "    with $calls and $((2 * calls)) calls, 3 times each;"
    echo "    (median at 2K - median at K) / K set beside muxprof's per-call mean of the same cell."
    echo "    Agreement means within $tol% of the larger value (or both under 0.05 per call)."
  else
    echo "  - no second method: $perf_why"
  fi
  echo
  printf '%-24s %-7s %14s %14s  %s\n' counter preset muxprof/call perf/call verdict
  [ -f "./.rows" ] && cat "./.rows"
  echo
  echo "$n_agree agree, $n_differ differ, $n_unchecked not checked (task-clock in ns; others in events per call)."
  if [ -n "$failed" ]; then echo "Verdict: a step FAILED:$failed (see its .txt in this directory)."
  elif [ "$n_differ" -gt 0 ]; then echo "Verdict: $n_differ counter(s) DIFFER between muxprof and perf stat: do not trust them here."
  elif [ "$n_agree" -gt 0 ]; then echo "Verdict: every counter that could be checked agrees with perf stat."
  else echo "Verdict: no counter could be checked a second way (reasons above)."
  fi
  echo "Took $(elapsed) s; everything printed is in $out."
} >"./summary.txt.tmp"
mv "./summary.txt.tmp" "./summary.txt"
rm -f "./.rows"
cat "./summary.txt"
if [ -n "$failed" ]; then exit 1; fi
if [ "$n_differ" -gt 0 ]; then exit 3; fi
exit 0
