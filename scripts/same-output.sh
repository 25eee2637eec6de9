#!/bin/sh
# SPDX-License-Identifier: MIT
# Write every output muxprof derives from fixed inputs into OUT, so that two builds can be
# compared with diff -r: report.md and figure .gp/.dat of each fixture run (and of any extra
# run directories given), compare's report and --json over fixture pairs, report --json where the
# binary has it, each verb's --help, --man and --completion.
#
#   scripts/same-output.sh MUXPROF OUT [RUN_DIR...]
#
# OUT must be new: an existing one is refused (exit 1 when it is a symbolic link,
# another user's or writable by group or others, scripts/lib/outdir.sh; else 2).
# RUN_DIR: a finished run (results.json, samples.csv) reported again as it is, e.g. a fresh
# run kept from the old build. Figures are not drawn (--no-plots): .gp and .dat are compared.
case ${1-} in
	-h|--help) sed -n '3,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
esac
set -eu
[ $# -ge 2 ] || { echo "usage: $0 MUXPROF OUT [RUN_DIR...]" >&2; exit 2; }
mp=$(realpath "$1"); out=$2; shift 2
[ -x "$mp" ] || { echo "$0: $mp is not an executable" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/lib/outdir.sh"
outdir_check same-output OUT "$out"
[ ! -e "$out" ] || { echo "$0: $out exists; give a new directory" >&2; exit 2; }
outdir_make same-output OUT "$out"
out=$(realpath "$OUTDIR")
mkdir -p "$out/report" "$out/compare" "$out/help"

# TZ and locale fixed: nothing here should depend on them, and a diff should not either.
export TZ=UTC LC_ALL=C

copy_run() {  # SRC_DIR DEST_DIR
	mkdir -p "$2"
	for f in results.json samples.csv results.csv; do
		[ ! -f "$1/$f" ] || cp "$1/$f" "$2/$f"
	done
}

names_only() {  # MANIFEST: inode and time of each line dropped, names sorted
	cut -d' ' -f3- "$1" | sort >"$1.names" && rm -f "$1"
}

report_one() {  # NAME SRC_DIR
	d="$out/report/$1"
	copy_run "$2" "$d"
	"$mp" report "$d" --no-plots >"$d.stdout" 2>"$d.stderr" || echo "rc=$?" >>"$d.stderr"
	if "$mp" report --help 2>&1 | grep -q -- '--json'; then
		"$mp" report "$d" --json >"$d.json" 2>>"$d.stderr" || echo "json rc=$?" >>"$d.stderr"
	fi
	# The manifest lists what was written, with inodes and times: only the names are outputs.
	[ ! -f "$d/.muxprof-manifest" ] || names_only "$d/.muxprof-manifest"
}

for f in "$top"/tests/fixtures/report/*/results.json "$top"/tests/fixtures/compare/*/results.json; do
	src=$(dirname "$f")
	report_one "$(basename "$(dirname "$src")")-$(basename "$src")" "$src"
done
i=0
for r in "$@"; do
	i=$((i + 1))
	report_one "run$i" "$r"
done

fx="$top/tests/fixtures/compare"
compare_one() {  # NAME INPUT...
	n=$1; shift
	"$mp" compare "$@" --out "$out/compare/$n" --no-plots >"$out/compare/$n.stdout" 2>"$out/compare/$n.stderr" \
		|| echo "rc=$?" >>"$out/compare/$n.stderr"
	"$mp" compare "$@" --json >"$out/compare/$n.json" 2>>"$out/compare/$n.stderr" \
		|| echo "json rc=$?" >>"$out/compare/$n.stderr"
	[ ! -f "$out/compare/$n/.muxprof-manifest" ] || names_only "$out/compare/$n/.muxprof-manifest"
}
compare_one hosts "$fx/hostA" "$fx/hostB"
compare_one prof "$fx/hostA" "$fx/profB"
compare_one sim "$fx/sim_n1" "$fx/hostB"
compare_one eventfd "$fx/eventfd_only" "$fx/hostA"
compare_one tcp "$fx/tcp_interrupted" python-selectors-tcp
for ref in $("$mp" compare --list-references 2>/dev/null | awk '/^[^ ]/ {print $1}' | head -3); do
	compare_one "ref-$ref" "$fx/hostA" "$ref"
done
if [ $# -ge 2 ]; then compare_one runs "$1" "$2"; fi
"$mp" compare --list-references >"$out/compare/list-references" 2>&1 || true

for v in "" run report compare events topology doctor loop; do
	"$mp" $v --help >"$out/help/${v:-main}" 2>&1 || true
done
"$mp" --man >"$out/help/man" 2>&1 || true
"$mp" --completion bash >"$out/help/completion" 2>&1 || true
# Absolute paths of this machine's checkout and output tree, and the build's own git describe,
# are not outputs of the code.
desc=$("$mp" --version | sed -n 's/.*(git \(.*\)).*/\1/p')
grep -rl -e "$out" -e "$top" -e "${desc:-@none@}" "$out" 2>/dev/null | while read -r f; do
	sed -i -e "s#$out#OUT#g" -e "s#$top#TOP#g" ${desc:+-e "s#$desc#GIT#g"} "$f"
done
echo "$out"
