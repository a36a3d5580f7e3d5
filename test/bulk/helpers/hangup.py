#!/usr/bin/env python3
"""Runs a command in a pseudo-terminal, then closes the terminal (the kernel
sends SIGHUP, and writes to it fail with EIO) once FILE holds COUNT lines
that contain NEEDLE. Prints {"exit": code, "closed": bool} as JSON.

    python3 hangup.py FILE NEEDLE COUNT COMMAND [ARGS...]
"""
import json
import os
import pty
import sys
import time

path, needle, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[4], sys.argv[4:])


def seen():
    try:
        with open(path, encoding="utf8") as f:
            return f.read().count(needle)
    except FileNotFoundError:
        return 0


closed = False
deadline = time.time() + 60
while time.time() < deadline:
    try:
        if not os.read(fd, 65536):
            break
    except OSError:
        break
    if seen() >= count:
        os.close(fd)
        closed = True
        break
_, status = os.waitpid(pid, 0)
if not closed:
    os.close(fd)
print(json.dumps({"exit": os.waitstatus_to_exitcode(status), "closed": closed}))
