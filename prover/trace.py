"""The run trace: one ``TraceEvent`` per line of JSONL, flushed as it is written, so an
interrupted run still leaves everything that happened up to the interrupt.

``Trace(path)`` writes to a file; ``Trace(None)`` keeps events in memory only. Listeners
(the live view) get every event. Thread-safe.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self

from .records import TraceEvent


class Trace:
    def __init__(self, path: str | Path | None = None, *, keep: bool = True):
        self.path = Path(path) if path is not None else None
        self.start = time.monotonic()
        self.events: list[TraceEvent] = []
        self._keep = keep
        self._lock = threading.Lock()
        self._fh = None
        self._listeners: list[Callable[[TraceEvent], None]] = []
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fh = self.path.open("a", encoding="utf-8")

    def listen(self, fn: Callable[[TraceEvent], None]) -> None:
        self._listeners.append(fn)

    def emit(self, kind: str, *, problem: str = "", lemma: str | None = None, **data: Any) -> TraceEvent:
        ev = TraceEvent.now(self.start, kind, problem=problem, lemma=lemma, data=_jsonable(data))
        with self._lock:
            if self._keep:
                self.events.append(ev)
            if self._fh is not None:
                self._fh.write(ev.to_json() + "\n")
                self._fh.flush()
        for fn in list(self._listeners):
            try:
                fn(ev)
            except Exception:  # noqa: BLE001 - a broken view must not stop the prover
                pass
        return ev

    def of_kind(self, kind: str) -> list[TraceEvent]:
        return [e for e in self.events if e.kind == kind]

    def close(self) -> None:
        with self._lock:
            if self._fh is not None:
                self._fh.close()
                self._fh = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    return str(value)


def read_trace(path: str | Path) -> list[TraceEvent]:
    return [TraceEvent.from_json(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
