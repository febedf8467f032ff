"""A watchdog that kills what a server started once the server is gone, however it died.

Why: every proof-assistant process runs in its own session and process group (the sandbox
puts it there, so a timeout can kill its whole tree), so a SIGKILL of the server reaches none
of them. An idle ``coqtop`` notices the end of its input and exits, but one busy in a looping
tactic runs on (sessions have no CPU limit). Linux's ``PR_SET_PDEATHSIG`` is no fix: it needs
code run between fork and exec, and it fires when the spawning *thread* ends (the server
spawns from short-lived worker threads).

How: ``start(pid)`` runs this file as a separate small process (``python -I``, standard library
only) whose stdin is a pipe the server holds and never writes. Every ``POLL_S`` it records the
server's descendants from ``/proc`` (pid, start time, process group). When its stdin reaches
end of file (the server died, or closed it on shutdown) or the server's pid is gone, it sends
SIGKILL to each recorded process still alive with the same start time, to its whole group when
it leads one, and exits. Not covered: a process started less than ``POLL_S`` before the server
died and not yet seen (an idle one still exits on its own when its input closes). Linux only
(``/proc``); elsewhere ``start`` returns None.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time

POLL_S = 0.2


def start(pid: int | None = None) -> subprocess.Popen | None:
    """Start the watchdog for ``pid`` (default: this process). Keep the handle: its stdin
    is the lifeline; ``stop`` closes it (the watchdog then kills leftovers and exits)."""
    if not os.path.isdir("/proc/self"):
        return None
    return subprocess.Popen(
        [sys.executable, "-I", os.path.abspath(__file__), str(pid or os.getpid())],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        close_fds=True,
    )


def stop(proc: subprocess.Popen | None, timeout: float = 5.0) -> None:
    """Close the lifeline and wait for the watchdog to finish."""
    if proc is None:
        return
    try:
        if proc.stdin is not None:
            proc.stdin.close()
        proc.wait(timeout=timeout)
    except (OSError, subprocess.TimeoutExpired):
        proc.kill()


def _stat(pid: int) -> tuple[int, int, int] | None:
    """(ppid, pgrp, start time) of ``pid`` from /proc, None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            raw = f.read().decode("ascii", "replace")
    except OSError:
        return None
    fields = raw[raw.rfind(")") + 2 :].split()
    if len(fields) < 20 or fields[0] == "Z":
        return None
    return int(fields[1]), int(fields[2]), int(fields[19])


def _descendants(root: int, me: int) -> dict[int, tuple[int, int]]:
    """{pid: (start time, pgrp)} of every live descendant of ``root`` except ``me``."""
    children: dict[int, list[int]] = {}
    info: dict[int, tuple[int, int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        st = _stat(int(name))
        if st is None:
            continue
        ppid, pgrp, start_time = st
        children.setdefault(ppid, []).append(int(name))
        info[int(name)] = (start_time, pgrp)
    out: dict[int, tuple[int, int]] = {}
    todo = list(children.get(root, ()))
    while todo:
        pid = todo.pop()
        if pid == me or pid in out or pid not in info:
            continue
        out[pid] = info[pid]
        todo.extend(children.get(pid, ()))
    return out


def _kill(seen: dict[int, tuple[int, int]]) -> None:
    for pid, (start_time, pgrp) in seen.items():
        st = _stat(pid)
        if st is None or st[2] != start_time:
            continue  # gone, or the pid was reused
        try:
            if pgrp == pid:
                os.killpg(pid, signal.SIGKILL)
            else:
                os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def watch(root: int) -> None:
    me = os.getpid()
    seen: dict[int, tuple[int, int]] = {}
    while True:
        ready, _, _ = select.select([0], [], [], POLL_S)
        if ready and not os.read(0, 4096):
            break
        if _stat(root) is None:
            break
        now = _descendants(root, me)
        seen = {pid: v for pid, v in seen.items() if pid in now} | now
    _kill(seen)
    time.sleep(0.05)
    _kill(seen)  # a group member forked while the first signal was on its way


if __name__ == "__main__":
    watch(int(sys.argv[1]))
