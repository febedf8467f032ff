"""A lemma cache that persists across problems (sqlite, one file).

Key: SHA-256 of (language, normalised header + preamble, normalised statement with the
lemma's keyword and name removed). Value: the proof body and the helper lemmas (with
proofs) it relies on. A hit is never trusted blindly: the caller re-checks the cached proof
in the current context (one check instead of a new search), because the proof may use
names of the context it was found in.

Normalisation: comments removed, whitespace collapsed (``lean_tools.source.normalize``).
Thread-safe (one connection per call).
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import threading
import time
from pathlib import Path

from .records import LemmaSpec


def _normalize(text: str, language: str) -> str:
    try:
        from lean_tools.source import normalize

        return normalize(text, language)  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001 - unterminated comment etc.: fall back to whitespace only
        return " ".join(text.split())


def statement_of(declaration: str, name: str) -> str:
    """The declaration without its keyword and name (what the lemma says, not what it is called)."""
    return re.sub(rf"^\s*(?:[\w@\[\]]+\s+)*?{re.escape(name)}(?![\w'])", "", declaration, count=1).strip()


def lemma_key(language: str, env_header: str, declaration: str, name: str) -> str:
    h = hashlib.sha256()
    for part in (language, _normalize(env_header, language), _normalize(statement_of(declaration, name), language)):
        h.update(part.encode("utf-8"))
        h.update(b"\x00")
    return h.hexdigest()[:32]


class LemmaCache:
    """``get(key) -> (proof, helpers) | None``; ``put(...)``. ``path=None``: in memory only."""

    def __init__(self, path: str | Path | None):
        self.path = Path(path).expanduser() if path is not None else None
        self._mem: dict[str, tuple[str, tuple[LemmaSpec, ...]]] = {}
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as c:
                c.execute(
                    "CREATE TABLE IF NOT EXISTS lemmas (key TEXT PRIMARY KEY, language TEXT, name TEXT, "
                    "declaration TEXT, proof TEXT, helpers TEXT, problem TEXT, created REAL)"
                )

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(str(self.path), timeout=30)

    def get(self, key: str) -> tuple[str, tuple[LemmaSpec, ...]] | None:
        with self._lock:
            hit = self._mem.get(key)
        if hit is None and self.path is not None:
            with self._connect() as c:
                row = c.execute("SELECT proof, helpers FROM lemmas WHERE key = ?", (key,)).fetchone()
            if row is not None:
                hit = (row[0], tuple(LemmaSpec.model_validate(h) for h in json.loads(row[1] or "[]")))
        with self._lock:
            if hit is None:
                self.misses += 1
            else:
                self.hits += 1
                self._mem[key] = hit
        return hit

    def put(
        self, key: str, *, language: str, name: str, declaration: str, proof: str, helpers: tuple[LemmaSpec, ...] = (), problem: str = ""
    ) -> None:
        with self._lock:
            self._mem[key] = (proof, helpers)
        if self.path is not None:
            with self._connect() as c:
                c.execute(
                    "INSERT OR REPLACE INTO lemmas VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (key, language, name, declaration, proof, json.dumps([h.model_dump() for h in helpers]), problem, time.time()),
                )

    def __len__(self) -> int:
        if self.path is None:
            return len(self._mem)
        with self._connect() as c:
            return int(c.execute("SELECT COUNT(*) FROM lemmas").fetchone()[0])


def goal_key(language: str, header: str, goal: str) -> str:
    """Key of one proof goal: (language, normalised header, the printed goal with its
    whitespace collapsed). Hypothesis names are part of the goal text on purpose: a
    reconstruction may name them."""
    h = hashlib.sha256()
    for part in (language, _normalize(header, language), " ".join(goal.split())):
        h.update(part.encode("utf-8"))
        h.update(b"\x00")
    return h.hexdigest()[:32]


class ReconstructionCache:
    """CoqHammer reconstructions (``sauto use: ...``) by goal, next to the lemma cache.

    Same sqlite file as ``LemmaCache`` (table ``reconstructions``) or memory only
    (``path=None``). ``get(header, goal)`` returns the tactics stored for that goal, newest
    first; a hit is only a candidate: the search replays it on the goal before it counts, so a
    stale or wrong entry costs one replay, never a wrong proof.
    """

    def __init__(self, path: str | Path | None, *, language: str = "rocq"):
        self.path = Path(path).expanduser() if path is not None else None
        self.language = language
        self._mem: dict[str, list[str]] = {}
        self._lock = threading.Lock()
        self._ready = False

    def _connect(self) -> sqlite3.Connection:
        """The database, created on first use (not in the constructor: a run whose hammer never
        starts leaves no file behind)."""
        assert self.path is not None
        if not self._ready:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with sqlite3.connect(str(self.path), timeout=30) as c:
                c.execute(
                    "CREATE TABLE IF NOT EXISTS reconstructions (key TEXT, tactic TEXT, goal TEXT, created REAL, "
                    "PRIMARY KEY (key, tactic))"
                )
            self._ready = True
        return sqlite3.connect(str(self.path), timeout=30)

    def get(self, header: str, goal: str) -> tuple[str, ...]:
        key = goal_key(self.language, header, goal)
        with self._lock:
            found = list(self._mem.get(key, ()))
        if self.path is not None:
            with self._connect() as c:
                rows = c.execute("SELECT tactic FROM reconstructions WHERE key = ? ORDER BY created DESC", (key,)).fetchall()
            found += [r[0] for r in rows if r[0] not in found]
        return tuple(found)

    def put(self, header: str, goal: str, tactic: str) -> None:
        key = goal_key(self.language, header, goal)
        with self._lock:
            kept = self._mem.setdefault(key, [])
            if tactic not in kept:
                kept.insert(0, tactic)
        if self.path is not None:
            with self._connect() as c:
                c.execute(
                    "INSERT OR REPLACE INTO reconstructions VALUES (?, ?, ?, ?)",
                    (key, tactic, " ".join(goal.split())[:4000], time.time()),
                )

    def __len__(self) -> int:
        if self.path is None:
            with self._lock:
                return sum(len(v) for v in self._mem.values())
        with self._connect() as c:
            return int(c.execute("SELECT COUNT(*) FROM reconstructions").fetchone()[0])
