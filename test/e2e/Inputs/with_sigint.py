#!/usr/bin/env python3
"""with_sigint.py PROGRAM ARGS...: runs PROGRAM with SIGINT's default action.

A background job of a non-interactive shell starts with SIGINT ignored (and
a program keeps an ignored SIGINT ignored); a tty's foreground job has the
default. This restores the default, then replaces itself with PROGRAM.
"""
import os
import signal
import sys

signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])
