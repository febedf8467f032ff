"""The results DB refuses corrupted and foreign files with a clear error (library and CLI)."""

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.db import DBError, ResultsDB, current_owner, owner_alive

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "benchmarks", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, check=False)


def test_new_db_has_schema_and_reopens(tmp_path):
    path = tmp_path / "r.db"
    with ResultsDB(path) as db:
        assert dict(db.conn.execute("SELECT key, value FROM meta").fetchall()) == {"schema": "prover-bench", "version": "2"}
        assert db.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with ResultsDB(path):
        pass


def test_garbage_file_is_refused(tmp_path):
    path = tmp_path / "junk.db"
    path.write_bytes(os.urandom(4096))
    with pytest.raises(DBError, match="not a SQLite database"):
        ResultsDB(path)


def test_corrupted_sqlite_is_refused(tmp_path):
    path = tmp_path / "c.db"
    with ResultsDB(path) as db:
        db.conn.execute("PRAGMA journal_mode=DELETE")
        for i in range(300):
            db.conn.execute("INSERT INTO meta VALUES (?, ?)", (f"k{i}", "x" * 200))
    raw = bytearray(path.read_bytes())
    assert len(raw) > 8192
    raw[4096:8192] = os.urandom(4096)  # smash a b-tree page, keep the header
    path.write_bytes(bytes(raw))
    with pytest.raises(DBError):
        ResultsDB(path)


def test_foreign_and_wrong_version_dbs_are_refused(tmp_path):
    foreign = tmp_path / "foreign.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE users (id INTEGER, name TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(DBError, match="not a prover-bench results database"):
        ResultsDB(foreign)
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    conn.execute("INSERT INTO meta VALUES ('schema', 'someone-else'), ('version', '1')")
    conn.commit()
    conn.close()
    with pytest.raises(DBError, match="schema 'someone-else'"):
        ResultsDB(other)
    newer = tmp_path / "newer.db"
    with ResultsDB(newer) as db:
        db.conn.execute("UPDATE meta SET value='99' WHERE key='version'")
    with pytest.raises(DBError, match="schema version 99"):
        ResultsDB(newer)


def test_cli_reports_bad_db_in_one_line(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_text("this is a text file, not a database\n" * 20)
    for args in (["report", "--db", str(junk), "--out", str(tmp_path / "out")],
                 ["run", str(tmp_path), "--db", str(junk)]):
        r = _cli(*args)
        assert r.returncode == 2, r.stderr
        assert r.stderr.startswith("prover-bench: error:") and "not a SQLite database" in r.stderr
        assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_cli_bad_input_exits_2(tmp_path):
    r = _cli("run", "no-such-suite", "--db", str(tmp_path / "x.db"))
    assert r.returncode == 2 and "unknown suite" in r.stderr and "Traceback" not in r.stderr
    r = _cli("report", "--db", str(tmp_path / "missing.db"), "--out", str(tmp_path / "o"))
    assert r.returncode == 2 and "no such results database" in r.stderr


def test_owner_liveness():
    assert owner_alive(current_owner()) is True
    host = current_owner().rsplit(":", 2)[0]
    assert owner_alive(f"{host}:999999999:1") is False
    assert owner_alive(f"{host}:{os.getpid()}:0") is False  # pid reused by another process
    assert owner_alive("some-other-host:1:1") is None
