"""Resident memory and CPU time of a process tree, read from ``/proc`` (no psutil).

Shared by every proof-assistant session: the memory watch that recycles a grown process and
the CPU-seconds accounting of the budgets both read ``group_usage``.
"""

from __future__ import annotations

import os


def _proc_stat(pid: str) -> tuple[int, float] | None:
    """(pgrp, cpu seconds) of a process, None if gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[2]), (int(fields[11]) + int(fields[12])) / tick


def _vm_rss(pid: str) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _children(pid: int) -> list[int] | None:
    """Child pids from /proc (None where the kernel lacks CONFIG_PROC_CHILDREN)."""
    kids: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/children", encoding="ascii") as f:
                kids += [int(x) for x in f.read().split()]
        except FileNotFoundError:
            if not os.path.exists(f"/proc/{pid}"):
                return kids
            return None
        except (OSError, ValueError):
            pass
    return kids


def group_usage(pgid: int) -> tuple[int, float]:
    """(resident bytes, cpu seconds) of the process tree under ``pgid`` (it leads its group).

    Walks ``/proc/<pid>/task/*/children``; where that file does not exist, scans all of
    ``/proc`` for members of the process group instead.
    """
    rss, cpu = 0, 0.0
    todo, seen = [pgid], set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        kids = _children(pid)
        if kids is None:
            return _scan_group(pgid)
        st = _proc_stat(str(pid))
        if st is not None:
            cpu += st[1]
            rss += _vm_rss(str(pid))
        todo += kids
    return rss, cpu


def _scan_group(pgid: int) -> tuple[int, float]:
    rss, cpu = 0, 0.0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        st = _proc_stat(pid)
        if st is not None and st[0] == pgid:
            cpu += st[1]
            rss += _vm_rss(pid)
    return rss, cpu
