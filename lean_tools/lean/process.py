"""One child process on pipes, and what ``/proc`` says about its process tree.

``ReplProcess`` owns the pipes of a REPL-like child: stdout lines go through a reader thread
into a queue (so a read can time out), stderr is drained on its own thread into a bounded
tail. ``group_usage`` sums resident memory (``VmRSS`` in ``/proc/<pid>/status``) and CPU
time over the process tree, without psutil.
"""

from __future__ import annotations

import collections
import os
import queue
import subprocess
import threading
import time

from .. import sandbox


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


class Eof(Exception):
    """The child closed stdout (exited or crashed)."""


class ReplProcess:
    """The pipes and threads of one REPL process. Not thread-safe; the session serialises."""

    def __init__(self, argv: list[str], cwd: str, env: dict[str, str], limits: sandbox.Limits, tail_chars: int):
        self.proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            preexec_fn=sandbox.preexec_fn(limits),
            bufsize=0,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self._tail: collections.deque[str] = collections.deque()
        self._tail_len = 0
        self._tail_chars = tail_chars
        self._out = threading.Thread(target=self._pump_stdout, daemon=True)
        self._err = threading.Thread(target=self._pump_stderr, daemon=True)
        self._out.start()
        self._err.start()
        self.killed = False

    def _pump_stdout(self) -> None:
        assert self.proc.stdout is not None
        for raw in iter(self.proc.stdout.readline, b""):
            self.lines.put(raw.decode("utf-8", errors="replace").rstrip("\r\n"))
        self.lines.put(None)

    def _pump_stderr(self) -> None:
        assert self.proc.stderr is not None
        for raw in iter(self.proc.stderr.readline, b""):
            text = raw.decode("utf-8", errors="replace")
            self._tail.append(text)
            self._tail_len += len(text)
            while self._tail_len > self._tail_chars and len(self._tail) > 1:
                self._tail_len -= len(self._tail.popleft())

    def stderr_tail(self, wait: float = 0.0) -> str:
        if wait:
            self._err.join(timeout=wait)
        return "".join(self._tail)[-self._tail_chars :]

    def write(self, text: str) -> None:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(text.encode("utf-8"))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise Eof() from None

    def read_block(self, deadline: float, poll: float, on_poll) -> str:
        """Lines up to the blank line ending a response. Raises TimeoutError / Eof."""
        lines: list[str] = []
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError()
            try:
                item = self.lines.get(timeout=min(remaining, poll))
            except queue.Empty:
                on_poll()
                continue
            if item is None:
                raise Eof()
            if item.strip() == "":
                if lines:
                    return "\n".join(lines)
                continue
            lines.append(item)

    def kill(self) -> None:
        self.killed = True
        sandbox.kill_group(self.proc)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except Exception:  # a reader thread may still hold the buffer; the process is dead anyway
                pass

    def alive(self) -> bool:
        return self.proc.poll() is None
