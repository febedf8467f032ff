"""One child process on pipes, and what psutil says about its process tree.

``ReplProcess`` owns the pipes of a REPL-like child: stdout lines go through a reader thread
into a queue (so a read can time out), stderr is drained on its own thread into a bounded
tail. Resource usage of the process tree comes from ``lean_tools.procstat.ProcessTree``.
The process is started by ``lean_tools.sandbox.spawn`` (own session, limits set before it runs).
"""

from __future__ import annotations

import collections
import queue
import subprocess
import threading
import time

from .. import sandbox
from ..procstat import ProcessTree


class Eof(Exception):
    """The child closed stdout (exited or crashed)."""


class ReplProcess:
    """The pipes and threads of one REPL process. Not thread-safe; the session serialises."""

    def __init__(self, argv: list[str], cwd: str, env: dict[str, str], limits: sandbox.Limits, tail_chars: int):
        self.proc = sandbox.spawn(
            argv,
            limits=limits,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            bufsize=0,
        )
        self.tree = ProcessTree(self.proc.pid)
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

    def usage(self) -> tuple[int, float]:
        """(resident bytes, cpu seconds) of the process tree (see ``lean_tools.procstat``)."""
        return self.tree.usage()

    def kill(self) -> None:
        if not self.killed:
            sandbox.charge_cpu(self.tree.usage()[1])
        self.killed = True
        sandbox.kill_group(self.proc)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except Exception:  # noqa: BLE001 - a reader thread may still hold the buffer; the process is dead anyway
                pass

    def alive(self) -> bool:
        return self.proc.poll() is None
