# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# outdir.sh - the output directory of a shell script, one that is safe to
# write into (POSIX sh; sourced, it defines functions and runs nothing).
#
#   outdir_make NAME OPTION PATH    OUTDIR=PATH made absolute, created when
#                                   missing (parents mkdir -p under umask 022,
#                                   PATH itself mkdir -m 0755); PATH empty: a new
#                                   mktemp -d directory ${TMPDIR:-/tmp}/NAME.XXXXXX (0700)
#   outdir_check NAME OPTION PATH   the same checks, nothing created (a missing
#                                   PATH passes): a refusal before any work, the
#                                   directory then made by outdir_make
#
# An existing PATH is accepted only when it is a real directory (not a
# symbolic link), owned by the effective user and writable by neither its
# group nor others; anything else prints one line on stderr,
# "NAME: OPTION PATH is ...: give a directory you own that others cannot
# write, or a new one", and exits 1 with nothing written.  Every directory
# above PATH, as written and as reached (pwd -P), is root's or the caller's
# and writable by no one else (a sticky one such as /tmp excepted: no one
# can replace another's entry there), and a symbolic link on the way is
# root's or the caller's too: fs.protected_symlinks may be 0, and it never
# covers a link in the middle of a path.  Directories made
# inside OUTDIR need no check: it is the caller's and no one else can write
# into it.

outdir__refuse() {   # NAME OPTION PATH WHAT
    printf '%s: %s %s is %s: give a directory you own that others cannot write, or a new one\n' \
        "$1" "$2" "$3" "$4" >&2
    exit 1
}

outdir__dir() {   # NAME OPTION PATH DIR: DIR, a directory or a link above PATH, passes
    od_s=$(stat -c '%a %u %g %F' "$4") ||
        { echo "$1: cannot read $4, above $2 $3" >&2; exit 1; }
    # shellcheck disable=SC2086  # mode, owner, group, kind: the words of stat's line
    set -- "$1" "$2" "$3" "$4" $od_s
    od_m=$(printf '%04d' "$5")
    case $6 in 0|"$(id -u)") ;; *) outdir__refuse "$1" "$2" "$3" "under $4, owned by uid $6" ;; esac
    case $8 in symbolic) return 0 ;; esac   # a link: its owner checked
    [ $((0$5 & 01000)) = 0 ] || return 0   # sticky: no one replaces another's entry
    [ $((0$5 & 2)) = 0 ] || outdir__refuse "$1" "$2" "$3" "under $4 (mode $od_m), writable by others"
    [ $((0$5 & 16)) = 0 ] || case $7 in 0|"$(id -g)") ;; *)
        outdir__refuse "$1" "$2" "$3" "under $4 (mode $od_m), writable by group $7" ;; esac
    return 0
}

outdir__above() {   # NAME OPTION PATH ABS: each existing directory above ABS (ABS not)
    od_rest=${4#/} od_at=""
    outdir__dir "$1" "$2" "$3" /
    while :; do
        case $od_rest in */*) od_c=${od_rest%%/*}; od_rest=${od_rest#*/} ;; *) break ;; esac
        [ -n "$od_c" ] || continue
        od_at=$od_at/$od_c
        [ -e "$od_at" ] || [ -L "$od_at" ] || break
        outdir__dir "$1" "$2" "$3" "$od_at"
    done
    return 0
}

outdir_check() {   # NAME OPTION PATH
    od_name=$1 od_opt=$2 od_path=$3 od_p=$3
    # A trailing / would make the tests below follow a link.
    while :; do case $od_p in */) [ "$od_p" = / ] && break; od_p=${od_p%/} ;; *) break ;; esac; done
    case $od_p in /*) OUTDIR=$od_p ;; *) OUTDIR=$PWD/$od_p ;; esac
    outdir__above "$od_name" "$od_opt" "$od_path" "$OUTDIR"
    od_up=$(dirname "$OUTDIR")
    while [ ! -d "$od_up" ]; do od_up=$(dirname "$od_up"); done
    od_real=$(cd "$od_up" && pwd -P) ||
        { echo "$od_name: cannot read $od_opt $od_path" >&2; exit 1; }
    outdir__above "$od_name" "$od_opt" "$od_path" "$od_real/x"
    if [ -L "$OUTDIR" ]; then
        outdir__refuse "$od_name" "$od_opt" "$od_path" "a symbolic link"
    fi
    [ -e "$OUTDIR" ] || return 0
    [ -d "$OUTDIR" ] || outdir__refuse "$od_name" "$od_opt" "$od_path" "not a directory"
    od_st=$(stat -c '%u %a' "$OUTDIR") ||
        { echo "$od_name: cannot read $od_opt $od_path" >&2; exit 1; }
    od_uid=${od_st% *} od_mode=${od_st#* } od_me=$(id -u)
    [ "$od_uid" = "$od_me" ] ||
        outdir__refuse "$od_name" "$od_opt" "$od_path" "owned by uid $od_uid, not by you (uid $od_me)"
    [ $((0$od_mode & 2)) = 0 ] ||
        outdir__refuse "$od_name" "$od_opt" "$od_path" "writable by others (mode $od_mode)"
    [ $((0$od_mode & 16)) = 0 ] ||
        outdir__refuse "$od_name" "$od_opt" "$od_path" "writable by its group (mode $od_mode)"
    return 0
}

outdir_make() {   # NAME OPTION PATH
    if [ -z "$3" ]; then
        OUTDIR=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") ||
            { echo "$1: cannot create a directory in ${TMPDIR:-/tmp}" >&2; exit 1; }
        return 0
    fi
    outdir_check "$1" "$2" "$3"
    if [ ! -e "$OUTDIR" ]; then
        (umask 022 && mkdir -p "$(dirname "$OUTDIR")") && mkdir -m 0755 "$OUTDIR" 2>/dev/null ||
            [ -e "$OUTDIR" ] || [ -L "$OUTDIR" ] ||
            { echo "$1: cannot create $2 $3" >&2; exit 1; }
        # made here, or made by someone else meanwhile: checked again
        outdir_check "$1" "$2" "$3"
    fi
    return 0
}
