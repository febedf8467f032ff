"""The tactic sources' own seconds per attempt (``attempts.model_s`` / ``knn_s``): the columns
added to an older database, the values the search presets record for each outcome, and the
report's line on the model's share of the time and its tokens per second."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from benchmarks import analysis
from benchmarks.db import ResultsDB
from benchmarks.presets import _search, get_preset
from benchmarks.problem import AttemptResult, BenchProblem
from benchmarks.prover_attempt import RECHECK_REJECTED
from benchmarks.report import write_report
from benchmarks.suites import normalize_rocq
from prover.search import SearchResult

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "search"

_OLD_SCHEMA = """
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
  proof TEXT, reason TEXT, tokens INTEGER, checker_cpu_s REAL, wall_s REAL,
  UNIQUE (run_key, problem_id, seed));
INSERT INTO meta VALUES ('schema', 'prover-bench'), ('version', '2');
INSERT INTO runs VALUES ('k1', 'lm', 'toy', 'v1', 'h', '{}', 5.0, 0.0, 'prover-bench run', 'abc', '[]', NULL);
INSERT INTO attempts (run_key, problem_id, suite_version, config_hash, timeout_s, seed, status, owner, started_at,
  finished_at, outcome, reason, tokens, checker_cpu_s, wall_s)
  VALUES ('k1', 'toy/a', 'v1', 'h', 5.0, 0, 'done', 'test', 0.0, 1.0, 'failed', 'no proof found', 40, 3.0, 4.0);
"""
"""A results database as the schema was before the per-source seconds: one run, one finished attempt."""


def _old_db(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.executescript(_OLD_SCHEMA)
    conn.close()
    return path


def _columns(path: Path) -> list[str]:
    with sqlite3.connect(path) as c:
        return [r[1] for r in c.execute("PRAGMA table_info(attempts)")]


def _finish(db: ResultsDB, key: str, pid: str, seed: int, result: AttemptResult) -> None:
    aid = db.claim(key, pid, seed, suite_version="v1", config_hash="h", timeout_s=5.0, owner="test")
    assert aid is not None
    db.finish(aid, result)


def test_old_database_gets_the_columns_when_written_and_reads_unknown(tmp_path):
    old = _old_db(tmp_path / "old.db")
    (run,) = analysis.load([old]).runs  # read-only: the file is not changed, the figures are unknown
    assert "model_s" not in _columns(old)
    (att,) = run.attempts["toy/a"]
    assert att.model_s is None and att.knn_s is None and att.tokens == 40
    summ = analysis.source_time([att])
    assert summ == {"model_s": None, "model_attempts": 0, "model_share": None, "model_tokens_per_s": None,
                    "knn_s": None}
    with ResultsDB(old) as db:
        _finish(db, "k1", "toy/b", 0, AttemptResult(outcome="failed", tokens=30, wall_s=5.0, model_s=2.0, knn_s=0.5))
    assert _columns(old)[-2:] == ["model_s", "knn_s"]
    with sqlite3.connect(old) as c:
        rows = c.execute("SELECT problem_id, tokens, model_s, knn_s FROM attempts ORDER BY problem_id").fetchall()
        version = c.execute("SELECT value FROM meta WHERE key='version'").fetchone()[0]
    assert rows == [("toy/a", 40, None, None), ("toy/b", 30, 2.0, 0.5)]
    assert version == "2"  # nullable columns: code that predates them still opens the file
    with ResultsDB(old):  # a second open adds nothing
        pass
    assert _columns(old).count("model_s") == 1


def _problem() -> BenchProblem:
    return BenchProblem(suite="t", name="with_admitted", language="rocq",
                        text=normalize_rocq((DATA / "with_admitted.v").read_text()))


@pytest.mark.parametrize(("proved", "accepted", "outcome"), [
    (False, True, "failed"), (True, False, "failed"), (True, True, "proved")])
def test_search_records_the_sources_seconds_and_tokens_for_every_outcome(monkeypatch, proved, accepted, outcome):
    """A stand-in search result (no Rocq): the same costs whether the search failed, its proof
    was refused by the benchmark's re-check, or it was kept."""
    import benchmarks.prover_attempt
    import prover.search

    res = SearchResult(proved=proved, proof="intros; lia." if proved else None, reason="" if proved else "budget",
                       knn_seconds=0.25, lm_seconds=1.5, lm_cpu_seconds=1.0, lm_calls=3, lm_tokens=42)
    monkeypatch.setattr(prover.search, "prove_goal", lambda *a, **k: res)
    monkeypatch.setattr(benchmarks.prover_attempt, "recheck", lambda p, text, timeout: (accepted, "checked"))
    out = _search(_problem(), get_preset("default").config, t0=0.0)
    assert out.outcome == outcome
    assert (out.model_s, out.knn_s, out.tokens) == (1.5, 0.25, 42)
    assert out.checker_cpu_s >= 1.25  # the sources' CPU seconds (the model's, not its wall) stay in the CPU figure
    assert out.reason.startswith(RECHECK_REJECTED) == (proved and not accepted)


def test_report_shows_the_models_share_and_rate_and_leaves_unknown_as_na(tmp_path):
    path = tmp_path / "r.db"
    with ResultsDB(path) as db:
        for key, label in (("k1", "lm"), ("k2", "default"), ("k3", "agent")):
            db.ensure_run(key, label=label, suite="toy", suite_version="v1", config_hash="h", config={}, timeout_s=5.0,
                          command="prover-bench run toy")
        _finish(db, "k1", "toy/a", 0, AttemptResult(outcome="proved", proof="x", tokens=60, wall_s=6.0, model_s=2.0,
                                                    knn_s=0.5))
        _finish(db, "k1", "toy/b", 0, AttemptResult(outcome="failed", tokens=40, wall_s=4.0, model_s=3.0, knn_s=1.0))
        _finish(db, "k1", "toy/c", 0, AttemptResult(outcome="timeout", wall_s=20.0))  # abandoned: unknown
        _finish(db, "k2", "toy/a", 0, AttemptResult(outcome="failed", wall_s=5.0, model_s=0.0, knn_s=0.0))
        _finish(db, "k3", "toy/a", 0, AttemptResult(outcome="failed", tokens=900, wall_s=5.0))
    summ = write_report(analysis.load([path]), tmp_path / "out", plots=False)
    lm, default, agent = summ["runs"]
    assert (lm["model_s"], lm["model_attempts"], lm["knn_s"]) == (5.0, 2, 1.5)
    assert lm["model_share"] == pytest.approx(0.5) and lm["model_tokens_per_s"] == pytest.approx(20.0)
    assert default["model_s"] == 0.0 and default["model_tokens_per_s"] is None  # no model asked: no rate
    assert agent["model_s"] is None and agent["model_share"] is None and agent["tokens"] == 900
    md = (tmp_path / "out" / "report.md").read_text()
    lines = [ln for ln in md.splitlines() if ln.startswith("Tactic model:")]
    assert lines == [("Tactic model: 5.0 s in 2 attempts (1 more with no recorded model time: n/a), 50.0% of those "
                      "attempts' wall time, 20.0 tokens per second of model time; k-NN index: 1.5 s.")]
    csv_rows = (tmp_path / "out" / "attempts.csv").read_text().splitlines()
    assert csv_rows[0].endswith(",model_s,knn_s")
    assert any(r.endswith(",2.0,0.5") for r in csv_rows) and any(r.endswith("timeout,0,0.0,20.0,,,") for r in csv_rows)
