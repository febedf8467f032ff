"""The results database: SQLite in WAL mode, one row per attempt, written as each finishes.

Tables: ``meta`` (schema name + version: a database without them is refused), ``problems``,
``validation`` (cached per problem x statement hash x checker environment), ``runs`` (one per
suite version x prover config hash x per-attempt budget x code version; each records the code
version (``git describe --always --dirty``), the config and its hash, the shuffle seed, the
command line and the statements excluded by validation), ``attempts`` (each with its seed).

Schema version 2 added ``runs.code_version``, ``runs.excluded`` and ``runs.shuffle_seed``; a
version-1 database is upgraded in place when opened for writing (its runs get an empty code
version, meaning "not recorded") and read as it is when opened read-only.

Nullable columns added without a new version (``_ADDED_COLUMNS``: ``attempts.model_s`` and
``attempts.knn_s``, the seconds of the tactic model and of the k-NN index inside an attempt) are
added when a database that lacks them is opened for writing; a row written before they existed,
or by an attempt function that does not measure them, holds NULL (unknown). Readers of an older
file opened read-only treat the missing columns as NULL too (``benchmarks.analysis``).

Resume contract: an attempt row is inserted with ``status='running'`` and its owner
(``host:pid:process-start-time``) just before it is dispatched, and updated to ``done`` when
its result arrives. ``UNIQUE(run_key, problem_id, seed)`` means an attempt is never recorded
twice. On the next run, ``reclaim_stale()`` deletes ``running`` rows whose owner process on
this host is gone (crash, SIGKILL), so those attempts are redone; rows owned by live
processes or other hosts are left alone (``force=True`` reclaims those too).

Only the driver process writes (workers return results over pipes), so there is one writer.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import time
from collections.abc import Iterable
from pathlib import Path

import psutil

from .problem import AttemptResult, BenchProblem, Validation

SCHEMA_NAME = "prover-bench"
SCHEMA_VERSION = 2
_UPGRADES = {1: ["ALTER TABLE runs ADD COLUMN code_version TEXT NOT NULL DEFAULT ''",
                 "ALTER TABLE runs ADD COLUMN excluded TEXT NOT NULL DEFAULT '[]'",
                 "ALTER TABLE runs ADD COLUMN shuffle_seed INTEGER"]}
"""Statements that bring a database of version N to N + 1."""
_ADDED_COLUMNS = (("attempts", "model_s", "REAL"), ("attempts", "knn_s", "REAL"))
"""(table, column, type) of nullable columns added within the current version; an older file
opened for writing gets the ones it lacks, and code of the same version that predates them
still reads and writes it."""

_DDL = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE problems (
  problem_id TEXT PRIMARY KEY, suite TEXT NOT NULL, name TEXT NOT NULL, language TEXT NOT NULL,
  split TEXT, tags TEXT NOT NULL, difficulty TEXT, statement_hash TEXT NOT NULL, record TEXT NOT NULL);
CREATE TABLE validation (
  problem_id TEXT NOT NULL, statement_hash TEXT NOT NULL, environment TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('ok','failed','unvalidated')), reason TEXT NOT NULL,
  cpu_s REAL NOT NULL, checked_at REAL NOT NULL,
  PRIMARY KEY (problem_id, statement_hash, environment));
CREATE TABLE runs (
  run_key TEXT PRIMARY KEY, label TEXT NOT NULL, suite TEXT NOT NULL, suite_version TEXT NOT NULL,
  config_hash TEXT NOT NULL, config TEXT NOT NULL, timeout_s REAL NOT NULL, created_at REAL NOT NULL,
  command TEXT NOT NULL, code_version TEXT NOT NULL DEFAULT '', excluded TEXT NOT NULL DEFAULT '[]',
  shuffle_seed INTEGER);
CREATE TABLE attempts (
  id INTEGER PRIMARY KEY,
  run_key TEXT NOT NULL REFERENCES runs(run_key), problem_id TEXT NOT NULL,
  suite_version TEXT NOT NULL, config_hash TEXT NOT NULL, timeout_s REAL NOT NULL, seed INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('running','done')), owner TEXT NOT NULL,
  started_at REAL NOT NULL, finished_at REAL,
  outcome TEXT CHECK (outcome IN ('proved','failed','timeout','error')),
  proof TEXT, reason TEXT, tokens INTEGER, checker_cpu_s REAL, wall_s REAL, model_s REAL, knn_s REAL,
  UNIQUE (run_key, problem_id, seed));
CREATE INDEX attempts_run ON attempts(run_key, status);
"""


class DBError(Exception):
    """The file is not a usable results database (corrupted, foreign, or newer schema)."""


def _process_start(pid: int) -> str:
    """Start time of a process (psutil, centiseconds since the epoch; guards against pid reuse)."""
    try:
        return str(round(psutil.Process(pid).create_time() * 100))
    except psutil.Error:
        return "?"


def current_owner() -> str:
    pid = os.getpid()
    return f"{socket.gethostname()}:{pid}:{_process_start(pid)}"


def owner_alive(owner: str) -> bool | None:
    """True/False for an owner on this host; None when it is another host's (unknown)."""
    try:
        host, pid_s, start = owner.rsplit(":", 2)
        pid = int(pid_s)
    except ValueError:
        return False
    if host != socket.gethostname():
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return _process_start(pid) == start


class ResultsDB:
    """Open (creating if new) a results database; raises ``DBError`` on a bad file."""

    def __init__(self, path: str | os.PathLike, *, readonly: bool = False):
        self.path = Path(path)
        self.readonly = readonly
        self.conn = self._open()

    def _open(self) -> sqlite3.Connection:
        if self.path.is_dir():
            raise DBError(f"{self.path} is a directory, not a results database")
        if self.path.exists() and self.path.stat().st_size > 0:
            with open(self.path, "rb") as f:
                if f.read(16) != b"SQLite format 3\x00":
                    raise DBError(f"{self.path} is not a SQLite database (corrupted, or another kind of file)")
        if not self.path.parent.exists():
            raise DBError(f"directory {self.path.parent} does not exist")
        if self.readonly and not self.path.is_file():
            raise DBError(f"no such results database: {self.path}")
        try:
            if self.readonly:
                conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, timeout=30.0,
                                       isolation_level=None)
            else:
                conn = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
            conn.row_factory = sqlite3.Row
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise DBError(f"{self.path} is corrupted: {check}")
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if not tables and self.readonly:
                raise DBError(f"{self.path} is empty, not a results database")
            if not tables:
                conn.execute("PRAGMA journal_mode=WAL")
                conn.executescript("BEGIN;" + _DDL + "COMMIT;")
                conn.execute("INSERT INTO meta VALUES ('schema', ?), ('version', ?)", (SCHEMA_NAME, str(SCHEMA_VERSION)))
            else:
                self._check_schema(conn, tables)
                if not self.readonly:
                    conn.execute("PRAGMA journal_mode=WAL")
            if not self.readonly:
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.DatabaseError as e:
            raise DBError(f"{self.path} is not a usable SQLite database: {e}") from None
        return conn

    def _check_schema(self, conn: sqlite3.Connection, tables: set[str]) -> None:
        if "meta" not in tables:
            raise DBError(f"{self.path} is a SQLite database but not a prover-bench results database "
                          f"(no meta table; tables: {', '.join(sorted(tables))})")
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("schema") != SCHEMA_NAME:
            raise DBError(f"{self.path} is not a prover-bench results database (schema {meta.get('schema')!r})")
        try:
            version = int(meta.get("version", ""))
        except ValueError:
            raise DBError(f"{self.path}: unreadable schema version {meta.get('version')!r}") from None
        if version < SCHEMA_VERSION and not self.readonly:
            with _Tx(conn):
                for v in range(version, SCHEMA_VERSION):
                    for stmt in _UPGRADES[v]:
                        conn.execute(stmt)
                conn.execute("UPDATE meta SET value=? WHERE key='version'", (str(SCHEMA_VERSION),))
        elif version > SCHEMA_VERSION or version < 1:
            raise DBError(f"{self.path} has schema version {version}; this prover-bench reads version {SCHEMA_VERSION}")
        missing = {"problems", "validation", "runs", "attempts"} - tables
        if missing:
            raise DBError(f"{self.path} is missing tables: {', '.join(sorted(missing))}")
        if not self.readonly:
            _add_missing_columns(conn)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> ResultsDB:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- problems and validation ------------------------------------------------------------

    def upsert_problems(self, problems: Iterable[BenchProblem]) -> None:
        rows = [(p.id, p.suite, p.name, p.language, p.split, json.dumps(list(p.tags)), p.difficulty,
                 p.statement_hash, p.model_dump_json()) for p in problems]
        with self._tx():
            self.conn.executemany("INSERT OR REPLACE INTO problems VALUES (?,?,?,?,?,?,?,?,?)", rows)

    def cached_validation(self, problem: BenchProblem, environment: str) -> Validation | None:
        row = self.conn.execute(
            "SELECT * FROM validation WHERE problem_id=? AND statement_hash=? AND environment=?",
            (problem.id, problem.statement_hash, environment)).fetchone()
        if row is None:
            return None
        return Validation(problem_id=row["problem_id"], statement_hash=row["statement_hash"],
                          environment=row["environment"], status=row["status"], reason=row["reason"], cpu_s=row["cpu_s"])

    def record_validation(self, v: Validation) -> None:
        with self._tx():
            self.conn.execute("INSERT OR REPLACE INTO validation VALUES (?,?,?,?,?,?,?)",
                              (v.problem_id, v.statement_hash, v.environment, v.status, v.reason, v.cpu_s, time.time()))

    # --- runs and attempts ------------------------------------------------------------------

    def ensure_run(self, run_key: str, *, label: str, suite: str, suite_version: str, config_hash: str,
                   config: dict, timeout_s: float, command: str, code_version: str = "",
                   excluded: list[dict] | None = None, shuffle_seed: int | None = None) -> None:
        """Create the run row if new. A resumed run keeps its first row, except that the excluded
        statements are rewritten (validation may have been redone with another checker)."""
        ex = json.dumps(excluded or [], sort_keys=True)
        with self._tx():
            self.conn.execute("INSERT OR IGNORE INTO runs (run_key, label, suite, suite_version, config_hash, config,"
                              " timeout_s, created_at, command, code_version, excluded, shuffle_seed)"
                              " VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                              (run_key, label, suite, suite_version, config_hash, json.dumps(config, sort_keys=True),
                               timeout_s, time.time(), command, code_version, ex, shuffle_seed))
            if excluded is not None:
                self.conn.execute("UPDATE runs SET excluded=? WHERE run_key=?", (ex, run_key))

    def reclaim_stale(self, run_key: str, *, force: bool = False) -> int:
        """Delete ``running`` rows whose owner is dead (or all of them with ``force``)."""
        rows = self.conn.execute("SELECT id, owner FROM attempts WHERE run_key=? AND status='running'", (run_key,)).fetchall()
        stale = [r["id"] for r in rows if force or owner_alive(r["owner"]) is False]
        with self._tx():
            self.conn.executemany("DELETE FROM attempts WHERE id=? AND status='running'", [(i,) for i in stale])
        return len(stale)

    def existing(self, run_key: str) -> set[tuple[str, int]]:
        """(problem_id, seed) pairs already done or claimed by a live owner."""
        return {(r[0], r[1]) for r in self.conn.execute("SELECT problem_id, seed FROM attempts WHERE run_key=?", (run_key,))}

    def claim(self, run_key: str, problem_id: str, seed: int, *, suite_version: str, config_hash: str,
              timeout_s: float, owner: str) -> int | None:
        """Insert a ``running`` row; None if that attempt already exists (done or claimed)."""
        try:
            with self._tx():
                cur = self.conn.execute(
                    "INSERT INTO attempts (run_key, problem_id, suite_version, config_hash, timeout_s, seed, status,"
                    " owner, started_at) VALUES (?,?,?,?,?,?,'running',?,?)",
                    (run_key, problem_id, suite_version, config_hash, timeout_s, seed, owner, time.time()))
                return cur.lastrowid
        except sqlite3.IntegrityError:
            return None

    def finish(self, attempt_id: int, result: AttemptResult) -> None:
        with self._tx():
            self.conn.execute(
                "UPDATE attempts SET status='done', finished_at=?, outcome=?, proof=?, reason=?, tokens=?,"
                " checker_cpu_s=?, wall_s=?, model_s=?, knn_s=? WHERE id=?",
                (time.time(), result.outcome, result.proof if result.proved else None, result.reason[:4000],
                 result.tokens, result.checker_cpu_s, result.wall_s, result.model_s, result.knn_s, attempt_id))

    def delete_outcomes(self, run_key: str, outcomes: tuple[str, ...]) -> int:
        """Forget finished attempts with these outcomes (e.g. ``error``) so they are redone."""
        q = ",".join("?" * len(outcomes))
        with self._tx():
            cur = self.conn.execute(f"DELETE FROM attempts WHERE run_key=? AND status='done' AND outcome IN ({q})",
                                    (run_key, *outcomes))
        return cur.rowcount

    def _tx(self):
        return _Tx(self.conn)


def _add_missing_columns(conn: sqlite3.Connection) -> None:
    """``ALTER TABLE ... ADD COLUMN`` for each of ``_ADDED_COLUMNS`` the file lacks (existing rows: NULL)."""
    todo = [(t, c, ty) for t, c, ty in _ADDED_COLUMNS
            if c not in {r[1] for r in conn.execute(f"PRAGMA table_info({t})")}]
    if todo:
        with _Tx(conn):
            for table, column, kind in todo:
                conn.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")


class _Tx:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK`` on error) on an autocommit connection."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self):
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type, exc, tb):
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")
        return False
