# SPDX-License-Identifier: MIT
"""outdir.py - the output directory of a script, one that is safe to write into.

outdir(script, path) returns PATH made absolute once it is a directory the
caller may write into without another user's help: a new one (made here), or
an existing real directory (not a symbolic link) owned by the effective user
and writable by neither its group nor others.  PATH None: a new directory
from tempfile.mkdtemp (mode 0700, a name no one can guess) under $TMPDIR or
/tmp, named after the script.  Every directory above PATH, as written and as
reached (os.path.realpath), is root's or the caller's and writable by no one
else (a sticky one such as /tmp excepted: no one can replace another's entry
there), and a symbolic link on the way is root's or the caller's too:
fs.protected_symlinks may be 0, and it never covers a link in the middle of
a path.  Anything else: one line on stderr, exit 1,
nothing written.  make=False only checks (an existing PATH as above; a
missing one is accepted and not made), for a refusal before any work; the
directory is then made by a second call with make=True.  Directories made
inside the one returned need no check: it is the caller's and no one else
can write into it.
"""
import os
import stat
import sys
import tempfile

ADVICE = "give a directory you own that others cannot write, or a new one"


def _refuse(script, option, path, what):
    print("%s: %s %s is %s: %s" % (script, option, path, what, ADVICE), file=sys.stderr)
    sys.exit(1)


def _check_above(script, option, path, p):
    """Each existing directory above absolute P (P itself not), or refuse."""
    me, mygid = os.geteuid(), os.getegid()
    for top in (p, os.path.realpath(os.path.dirname(p)) + "/x"):
        at = "/"
        parts = [c for c in top.split("/")[:-1] if c]
        for c in [None] + parts:
            if c is not None:
                at = os.path.join(at, c)
            try:
                st = os.lstat(at)
            except FileNotFoundError:
                break
            except OSError as e:
                print("%s: cannot read %s, above %s %s: %s" % (script, at, option, path,
                                                              e.strerror), file=sys.stderr)
                sys.exit(1)
            if st.st_uid not in (0, me):
                _refuse(script, option, path, "under %s, owned by uid %d" % (at, st.st_uid))
            if stat.S_ISLNK(st.st_mode) or st.st_mode & stat.S_ISVTX:
                continue
            mode = stat.S_IMODE(st.st_mode)
            if mode & 0o002:
                _refuse(script, option, path, "under %s (mode %04o), writable by others"
                        % (at, mode))
            if mode & 0o020 and st.st_gid not in (0, mygid):
                _refuse(script, option, path, "under %s (mode %04o), writable by group %d"
                        % (at, mode, st.st_gid))


def _make_parents(script, option, path, parent):
    """The directories above PATH, made when missing, none writable by group or others."""
    old = os.umask(0o022)
    os.umask(old | 0o022)
    try:
        os.makedirs(parent, exist_ok=True)
    except OSError as e:
        print("%s: cannot create %s %s: %s" % (script, option, path, e.strerror), file=sys.stderr)
        sys.exit(1)
    finally:
        os.umask(old)


def outdir(script, path, option="--out", make=True):
    """The checked absolute directory for PATH (see the module's text), or exit 1."""
    if path is None or path == "":
        if not make:
            return None
        base = os.environ.get("TMPDIR") or "/tmp"
        try:
            return tempfile.mkdtemp(prefix=script + ".", dir=base)
        except OSError as e:
            print("%s: cannot create a directory in %s: %s" % (script, base, e.strerror),
                  file=sys.stderr)
            sys.exit(1)
    p = os.path.abspath(path)
    _check_above(script, option, path, p)
    if make:
        _make_parents(script, option, path, os.path.dirname(p))
        try:
            os.mkdir(p, 0o755)
            _check_above(script, option, path, p)   # a directory above swapped meanwhile
            return p
        except FileExistsError:
            pass   # an existing one: checked below
        except OSError as e:
            print("%s: cannot create %s %s: %s" % (script, option, path, e.strerror),
                  file=sys.stderr)
            sys.exit(1)
    try:
        st = os.lstat(p)
    except FileNotFoundError:
        return p
    except OSError as e:
        print("%s: cannot read %s %s: %s" % (script, option, path, e.strerror), file=sys.stderr)
        sys.exit(1)
    if stat.S_ISLNK(st.st_mode):
        _refuse(script, option, path, "a symbolic link")
    if not stat.S_ISDIR(st.st_mode):
        _refuse(script, option, path, "not a directory")
    if st.st_uid != os.geteuid():
        _refuse(script, option, path, "owned by uid %d, not by you (uid %d)"
                % (st.st_uid, os.geteuid()))
    mode = stat.S_IMODE(st.st_mode)
    if mode & 0o002:
        _refuse(script, option, path, "writable by others (mode %04o)" % mode)
    if mode & 0o020:
        _refuse(script, option, path, "writable by its group (mode %04o)" % mode)
    return p
