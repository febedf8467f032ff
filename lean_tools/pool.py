"""A pool of warm proof-assistant sessions keyed by (language, import header).

The expensive import (``import Mathlib``, ``Require Import Reals``) is paid once per session,
not once per check. A request for a header no idle session has can still reuse a process: an
idle session whose header is a prefix of the requested one and that can move its header forward
(``ExtendableSession``: Rocq) runs only the added text, so the holes of one file, each asked for
with the file cut before it, are reached by walking the file once (``PoolStats.extended``).
Sessions that cannot (Lean) start a new process as before. Guarantees:
- at most ``max_sessions`` live processes in all (idle sessions of other headers are evicted
  to make room; callers wait when every session is busy);
- a session is used by one caller at a time;
- a session that crashed, timed out past recovery, grew past its memory cap or served
  ``max_uses`` requests is closed and replaced on the next acquire; one whose header failed to
  move forward is closed and a fresh session started in its place;
- ``close()`` kills every process (also on interpreter exit via the context manager).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import cast

from .session import ExtendableSession, Language, ProofSession
from .types import ProofAssistantError

SessionFactory = Callable[[Language, str], ProofSession]


def default_factory(language: Language, header: str) -> ProofSession:
    from .assistant import assistant

    return assistant(language).open_session(header)


@dataclass
class PoolStats:
    created: int = 0
    reused: int = 0
    recycled: int = 0
    discarded: int = 0
    evicted: int = 0
    extended: int = 0
    """Requests served by moving an idle session's header forward instead of a new process."""
    extend_failed: int = 0
    """Of those, the ones whose added text failed: the session was closed and a fresh one started."""
    wait_seconds: float = 0.0


@dataclass
class _Entry:
    key: tuple[str, str]
    session: ProofSession
    busy: bool = False
    last_used: float = field(default_factory=time.monotonic)


class SessionPool:
    def __init__(self, factory: SessionFactory = default_factory, *, max_sessions: int = 2, max_uses: int = 2000):
        if max_sessions < 1:
            raise ValueError("max_sessions must be >= 1")
        self.factory = factory
        self.max_sessions = max_sessions
        self.max_uses = max_uses
        self.stats = PoolStats()
        self._entries: list[_Entry] = []
        self._cv = threading.Condition()
        self._closed = False

    def __enter__(self) -> SessionPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _acquire(self, key: tuple[str, str], timeout: float | None) -> _Entry:
        t0 = time.monotonic()
        with self._cv:
            while True:
                if self._closed:
                    raise RuntimeError("session pool is closed")
                entry = self._idle(key)
                if entry is not None:
                    entry.busy = True
                    self.stats.reused += 1
                    self.stats.wait_seconds += time.monotonic() - t0
                    return entry
                entry = self._extendable(key)
                if entry is not None:
                    entry.busy = True
                    break
                if len(self._entries) < self.max_sessions:
                    break
                idle = [e for e in self._entries if not e.busy]
                if idle:
                    victim = min(idle, key=lambda e: e.last_used)
                    self._entries.remove(victim)
                    self.stats.evicted += 1
                    victim.session.close()
                    break
                left = None if timeout is None else timeout - (time.monotonic() - t0)
                if left is not None and left <= 0:
                    raise TimeoutError("no proof-assistant session became free in time")
                self._cv.wait(left)
            if entry is None:
                entry = _Entry(key=key, session=None, busy=True)  # type: ignore[arg-type]
                self._entries.append(entry)  # reserve the slot while the process starts
        if entry.session is not None and self._extend(entry, key):
            with self._cv:
                self.stats.wait_seconds += time.monotonic() - t0
            return entry
        return self._start(entry, key, t0)

    def _idle(self, key: tuple[str, str]) -> _Entry | None:
        """An idle session with exactly ``key``."""
        return next((e for e in self._entries if not e.busy and e.key == key), None)

    def _extendable(self, key: tuple[str, str]) -> _Entry | None:
        """The idle session of ``key``'s language with the longest header that is a proper prefix
        of ``key``'s and that can move its header forward to it."""
        language, header = key
        found = [
            e for e in self._entries
            if not e.busy and e.key[0] == language and len(e.key[1]) < len(header) and header.startswith(e.key[1])
        ]
        for e in sorted(found, key=lambda e: len(e.key[1]), reverse=True):
            if isinstance(e.session, ExtendableSession) and e.session.can_extend(header):
                return e
        return None

    def _extend(self, entry: _Entry, key: tuple[str, str]) -> bool:
        """Move ``entry``'s session (busy, held by this caller) forward to ``key``'s header. False
        when that failed: the session is closed and ``entry`` is left reserved for a fresh one."""
        session = cast(ExtendableSession, entry.session)
        try:
            session.extend_header(key[1])
        except ProofAssistantError:
            entry.session.close()
            with self._cv:
                entry.key, entry.session = key, None  # type: ignore[assignment]
                self.stats.extend_failed += 1
            return False
        except BaseException:
            entry.session.close()
            with self._cv:
                self._forget(entry)
            raise
        with self._cv:
            closed = self._closed
            if not closed:
                entry.key = key
                self.stats.extended += 1
        if closed:  # ``close`` ran during the move: the session is not handed out
            entry.session.close()
            raise RuntimeError("session pool is closed")
        return True

    def _start(self, entry: _Entry, key: tuple[str, str], t0: float) -> _Entry:
        """Start a new session for ``key`` in the reserved ``entry``."""
        with self._cv:
            if self._closed:  # closed since the slot was reserved: start no process
                raise RuntimeError("session pool is closed")
        try:
            session = self.factory(key[0], key[1])  # type: ignore[arg-type]
            session.start()
        except BaseException:
            with self._cv:
                self._forget(entry)
            raise
        with self._cv:
            closed = self._closed
            if not closed:
                entry.session = session
                self.stats.created += 1
                self.stats.wait_seconds += time.monotonic() - t0
        if closed:  # the pool was closed while the process started: it must not outlive the pool
            session.close()
            raise RuntimeError("session pool is closed")
        return entry

    def _forget(self, entry: _Entry) -> None:
        """Drop ``entry`` from the pool (the lock held) and wake the waiters; nothing to drop once
        ``close`` has emptied the pool."""
        self._entries = [e for e in self._entries if e is not entry]
        self._cv.notify_all()

    def _release(self, entry: _Entry) -> None:
        s = entry.session
        drop = not s.alive() or s.uses >= self.max_uses or getattr(s, "needs_recycle", False)
        with self._cv:
            entry.busy = False
            entry.last_used = time.monotonic()
            if self._closed:
                drop = True  # ``close`` emptied the pool: nothing to remove, the session is closed
            elif drop:
                self._forget(entry)
                if s.alive():
                    self.stats.recycled += 1
                else:
                    self.stats.discarded += 1
            self._cv.notify_all()
        if drop:
            s.close()

    @contextmanager
    def session(self, language: Language, header: str, *, timeout: float | None = None) -> Iterator[ProofSession]:
        """Borrow a warm session for ``header``. Exceptions propagate; a dead session is replaced."""
        entry = self._acquire((language, header), timeout)
        try:
            yield entry.session
        finally:
            self._release(entry)

    def size(self) -> int:
        with self._cv:
            return len(self._entries)

    def close(self) -> None:
        """Close every session, borrowed ones included; later borrows raise ``RuntimeError``. A
        session that fails to close does not keep the others open."""
        with self._cv:
            self._closed = True
            sessions = [e.session for e in self._entries if e.session is not None]
            self._entries = []
            self._cv.notify_all()
        for session in sessions:
            try:
                session.close()
            except Exception:  # noqa: BLE001 - the remaining sessions must still be closed
                continue
