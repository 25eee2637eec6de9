# SPDX-License-Identifier: MIT
"""runfile.py - a run directory's files, read as muxprof reads them.

open_run_file(script, path, limit) opens PATH for reading without following
a symbolic link in its last component (O_NOFOLLOW), without blocking on a
FIFO or a device (O_NONBLOCK), and only when it is a regular file of at
most LIMIT bytes (64 MiB, the largest results.json `muxprof report`
reads, by default); it returns a text file object.  load_json(script, path)
reads a results.json that way.  Anything else: one line on stderr naming
the file, exit 1: a script never copies what a link in a run directory
points at (another user's file, /etc/shadow), nor waits on a FIFO.
"""
import errno
import io
import json
import os
import stat
import sys

RESULTS_MAX_BYTES = 64 << 20
SAMPLES_MAX_BYTES = 8 << 30


def _refuse(script, path, what):
    print("%s: %s %s: give a run directory muxprof wrote" % (script, path, what), file=sys.stderr)
    sys.exit(1)


def open_run_file(script, path, limit=RESULTS_MAX_BYTES):
    """PATH opened for reading as the module's text says, or exit 1."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        _refuse(script, path, "is a symbolic link" if e.errno == errno.ELOOP else
                "cannot be read (%s)" % e.strerror)
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        _refuse(script, path, "is not a regular file")
    if st.st_size > limit:
        os.close(fd)
        _refuse(script, path, "is %d bytes, more than the %d MiB a report reads"
                % (st.st_size, limit >> 20))
    os.set_blocking(fd, True)
    return io.open(fd, "r", encoding="utf-8", errors="strict", closefd=True)


def load_json(script, path, limit=RESULTS_MAX_BYTES):
    """The JSON document in PATH (a results.json), read as open_run_file reads, or exit 1."""
    with open_run_file(script, path, limit) as f:
        try:
            text = f.read(limit + 1)   # a file grown since it was opened stops here
            if len(text) > limit:
                _refuse(script, path, "grew past %d MiB while read" % (limit >> 20))
            return json.loads(text)
        except (ValueError, UnicodeDecodeError) as e:
            _refuse(script, path, "is not JSON (%s)" % e)
