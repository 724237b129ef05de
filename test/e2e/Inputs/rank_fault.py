#!/usr/bin/env python3
"""Runs an mpirun command, and once a file exists, signals one of its ranks.

rank_fault.py --signal KILL|STOP|TERM|INT --rank R|launcher --after FILE
              --limit S -- CMD...

Starts CMD (an mpirun line), waits (at most 300 s) until FILE exists, then
sends the signal to the process among CMD's descendants whose environment
says OMPI_COMM_WORLD_RANK=R, or with `--rank launcher` to CMD itself (as
Ctrl-C or a batch system's cancel would). Prints `signalled rank R` (or
`signalled the launcher`), then, once CMD
ends, `ended: status nonzero` or `ended: status 0`, and `within S s` when
it ended at most S seconds after the signal (else kills everything left,
prints `still running after S s` and exits 1), then CMD's stderr. Any
process of CMD left (a stopped rank) is killed before exiting.
"""
import argparse
import os
import signal
import subprocess
import sys
import time


def descendants(root):
    children = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open("/proc/%s/stat" % pid) as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
        children.setdefault(ppid, []).append(int(pid))
    out, todo = [], [root]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def rank_of(pid):
    try:
        with open("/proc/%d/environ" % pid, "rb") as f:
            for var in f.read().split(b"\0"):
                if var.startswith(b"OMPI_COMM_WORLD_RANK="):
                    return int(var.split(b"=", 1)[1])
    except OSError:
        pass
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--signal", choices=["KILL", "STOP", "TERM", "INT"], required=True)
    ap.add_argument("--rank", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--limit", type=float, required=True)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.time() + 300
    while not os.path.exists(a.after):
        if proc.poll() is not None or time.time() > deadline:
            print("ended before %s existed" % a.after)
            return 1
        time.sleep(0.05)
    if a.rank == "launcher":
        victims, who = [proc.pid], "the launcher"
    else:
        victims = [p for p in descendants(proc.pid) if rank_of(p) == int(a.rank)]
        who = "rank %s" % a.rank
    if not victims:
        print("no process of %s" % who)
        proc.kill()
        return 1
    os.kill(victims[0], getattr(signal, "SIG" + a.signal))
    signalled = time.time()
    print("signalled %s" % who)
    left = descendants(proc.pid)
    try:
        err = proc.communicate(timeout=a.limit)[1].decode(errors="replace")
        code = 0
        print("ended: status %s" % ("0" if proc.returncode == 0 else "nonzero"))
        print("within %g s" % a.limit if time.time() - signalled <= a.limit else "too late")
        print(err)
    except subprocess.TimeoutExpired:
        print("still running after %g s" % a.limit)
        proc.kill()
        code = 1
    for p in left:
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass
    return code


if __name__ == "__main__":
    sys.exit(main())
