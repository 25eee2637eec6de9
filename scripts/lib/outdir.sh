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
# write, or a new one", and exits 1 with nothing written.  Directories made
# inside OUTDIR need no check: it is the caller's and no one else can write
# into it.

outdir__refuse() {   # NAME OPTION PATH WHAT
    printf '%s: %s %s is %s: give a directory you own that others cannot write, or a new one\n' \
        "$1" "$2" "$3" "$4" >&2
    exit 1
}

outdir_check() {   # NAME OPTION PATH
    od_name=$1 od_opt=$2 od_path=$3 od_p=$3
    # A trailing / would make the tests below follow a link.
    while :; do case $od_p in */) [ "$od_p" = / ] && break; od_p=${od_p%/} ;; *) break ;; esac; done
    case $od_p in /*) OUTDIR=$od_p ;; *) OUTDIR=$PWD/$od_p ;; esac
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
