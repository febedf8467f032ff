"""Resident memory and CPU time of a process tree, read with psutil.

Shared by every proof-assistant session: the memory watch that recycles a grown process and
the CPU-seconds accounting of the budgets both read a ``ProcessTree``.

Accounting: CPU = user + system time of every live process of the tree, plus the time of the
descendants they have already waited for (``children_user``/``children_system``: coqtop's
``csdp`` runs, for instance). Memory = the sum of the live processes' resident sets.

Finding the descendants means scanning every process of the machine (psutil reads each
``/proc/<pid>/stat``: about 10 ms on a loaded machine with a hundred processes), too slow for
a reading after every tactic; so the list of descendants is refreshed at most every
``refresh_s`` seconds and the known members are read each time (a fraction of a millisecond).
A descendant started since the last refresh is counted from the next one on.
"""

from __future__ import annotations

import time

import psutil


class ProcessTree:
    """Usage of the process tree rooted at ``pid`` (see the module docstring)."""

    def __init__(self, pid: int, refresh_s: float = 1.0):
        self.pid = pid
        self.refresh_s = refresh_s
        self._root: psutil.Process | None
        try:
            self._root = psutil.Process(pid)
        except psutil.Error:
            self._root = None
        self._members: list[psutil.Process] = []
        self._listed_at = float("-inf")
        self.last_cpu_seconds = 0.0
        """The CPU of the last successful reading (kept once the tree is gone)."""

    def _descendants(self) -> list[psutil.Process]:
        now = time.monotonic()
        if self._root is not None and now - self._listed_at >= self.refresh_s:
            try:
                self._members = self._root.children(recursive=True)
            except psutil.Error:
                self._members = []
            self._listed_at = now
        return self._members

    def usage(self) -> tuple[int, float]:
        """(resident bytes, cpu seconds) of the tree now; (0, last cpu) once the root is gone."""
        if self._root is None:
            return 0, self.last_cpu_seconds
        rss, cpu, root_seen = 0, 0.0, False
        for p in [self._root, *self._descendants()]:
            try:
                with p.oneshot():
                    if p is not self._root and p.status() == psutil.STATUS_ZOMBIE:
                        continue  # its time appears in its parent's children_* once reaped
                    mem = p.memory_info().rss
                    t = p.cpu_times()
            except psutil.Error:
                continue
            root_seen = root_seen or p is self._root
            rss += mem
            cpu += t.user + t.system + t.children_user + t.children_system
        if not root_seen:
            return 0, self.last_cpu_seconds
        self.last_cpu_seconds = max(self.last_cpu_seconds, cpu)
        return rss, self.last_cpu_seconds


def group_usage(pid: int) -> tuple[int, float]:
    """(resident bytes, cpu seconds) of the process tree under ``pid``, listed afresh (slow path:
    one scan of all processes; use a ``ProcessTree`` for repeated readings)."""
    return ProcessTree(pid, refresh_s=0.0).usage()
