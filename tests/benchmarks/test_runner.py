"""Runner bookkeeping with fake attempt functions: records, resume, errors, hard timeouts, dead workers."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import bench_fakes

from benchmarks.db import ResultsDB
from benchmarks.problem import BenchProblem, config_hash
from benchmarks.runner import RunError, RunSpec, resolve_attempt_fn, run_attempts


def _problems(n=5):
    return [BenchProblem(suite="toy", name=f"p{i}", language="rocq", text=f"Theorem p{i} : True.\nProof.\nAdmitted.\n",
                         theorem=f"p{i}") for i in range(n)]


def _spec(timeout=5.0, config=None):
    config = config or {"x": 1}
    return RunSpec(suite="toy", suite_version="v1", config=config, config_hash=config_hash(config), timeout_s=timeout,
                   label=f"toy@{timeout:g}s")


def _rows(db, spec):
    return db.conn.execute("SELECT problem_id, seed, status, outcome, tokens, checker_cpu_s, wall_s FROM attempts "
                           "WHERE run_key=? ORDER BY problem_id, seed", (spec.run_key,)).fetchall()


def test_records_every_attempt_once_and_resumes(tmp_path):
    probs, spec = _problems(), _spec()
    with ResultsDB(tmp_path / "r.db") as db:
        stats = run_attempts(probs, db, spec, k=3, workers=2, attempt_fn=bench_fakes.coin_attempt)
        assert stats.done == 15 and stats.skipped == 0
        rows = _rows(db, spec)
        assert len(rows) == 15 and {r["status"] for r in rows} == {"done"}
        assert len({(r["problem_id"], r["seed"]) for r in rows}) == 15
        assert all(r["tokens"] == 500 and r["wall_s"] > 0 for r in rows)
        # same command again: nothing new; larger k: only the new seeds
        assert run_attempts(probs, db, spec, k=3, workers=2, attempt_fn=bench_fakes.coin_attempt).done == 0
        stats = run_attempts(probs, db, spec, k=4, workers=1, attempt_fn="bench_fakes:coin_attempt")
        assert stats.done == 5 and stats.skipped == 15
        assert len(_rows(db, spec)) == 20
        # another budget is another run
        other = _spec(timeout=2.0)
        assert run_attempts(probs, db, other, k=1, workers=1, attempt_fn=bench_fakes.coin_attempt).done == 5
        assert other.run_key != spec.run_key


def test_exceptions_are_recorded_as_errors_and_retried_on_request(tmp_path):
    probs, spec = _problems(2), _spec()
    with ResultsDB(tmp_path / "r.db") as db:
        run_attempts(probs, db, spec, k=1, attempt_fn=bench_fakes.raising_attempt)
        rows = db.conn.execute("SELECT outcome, reason FROM attempts").fetchall()
        assert [r["outcome"] for r in rows] == ["error", "error"]
        assert "RuntimeError: boom on p0" in rows[0]["reason"]
        stats = run_attempts(probs, db, spec, k=1, attempt_fn=bench_fakes.coin_attempt, retry_errors=True)
        assert stats.done == 2
        assert {r["outcome"] for r in db.conn.execute("SELECT outcome FROM attempts")} <= {"proved", "failed"}


def test_hard_timeout_kills_worker_and_run_continues(tmp_path):
    probs, spec = _problems(2), _spec(timeout=0.5)
    with ResultsDB(tmp_path / "r.db") as db:
        run_attempts(probs, db, spec, k=1, workers=2, attempt_fn=bench_fakes.hanging_attempt, grace_s=0.5)
        rows = _rows(db, spec)
        assert [r["outcome"] for r in rows] == ["timeout", "timeout"]
        assert all(r["wall_s"] == pytest.approx(1.0) for r in rows)


def test_warmup_runs_once_per_worker_outside_the_hard_limit(tmp_path):
    # the warm-up sleeps 1.5 s, longer than the 1 s hard limit: charged to an attempt, each would time out
    probs, spec = _problems(4), _spec(timeout=0.5)
    with ResultsDB(tmp_path / "r.db") as db:
        run_attempts(probs, db, spec, k=1, workers=2, attempt_fn="bench_fakes:warm_attempt", grace_s=0.5)
        rows = db.conn.execute("SELECT outcome, reason, wall_s FROM attempts").fetchall()
        assert [r["outcome"] for r in rows] == ["proved"] * 4
        assert all(r["wall_s"] < 1.0 for r in rows)
        assert len({r["reason"] for r in rows}) <= 2  # two workers, each warmed once, none replaced


def test_a_warmup_that_takes_an_argument_gets_the_run_config_once_per_worker(tmp_path):
    probs, spec = _problems(3), _spec(config={"preset": "lm", "lm": "installed"})
    with ResultsDB(tmp_path / "r.db") as db:
        run_attempts(probs, db, spec, k=1, workers=1, attempt_fn="bench_fakes:config_warm_attempt")
        reasons = {r["reason"] for r in db.conn.execute("SELECT reason FROM attempts")}
        assert reasons == {'[{"lm": "installed", "preset": "lm"}]'}


def test_failed_warmup_stops_the_run_with_its_cause(tmp_path):
    probs, spec = _problems(2), _spec()
    with ResultsDB(tmp_path / "r.db") as db:
        with pytest.raises(RunError, match="warm-up failed: RuntimeError: model folder missing"):
            run_attempts(probs, db, spec, k=1, workers=1, attempt_fn=bench_fakes.broken_warm_attempt)
        assert db.conn.execute("SELECT count(*) FROM attempts WHERE status='done'").fetchone()[0] == 0


def test_dead_worker_is_recorded_and_replaced(tmp_path):
    probs, spec = _problems(3), _spec()
    with ResultsDB(tmp_path / "r.db") as db:
        run_attempts(probs, db, spec, k=1, workers=1, attempt_fn=bench_fakes.dying_attempt)
        rows = db.conn.execute("SELECT outcome, reason FROM attempts").fetchall()
        assert len(rows) == 3 and all(r["outcome"] == "error" and "exit code 7" in r["reason"] for r in rows)


def test_stale_running_rows_are_redone_live_ones_kept(tmp_path):
    probs, spec = _problems(2), _spec()
    with ResultsDB(tmp_path / "r.db") as db:
        run_attempts(probs, db, spec, k=1, attempt_fn=bench_fakes.coin_attempt)
        db.conn.execute("UPDATE attempts SET status='running', outcome=NULL, owner='nohost:1:1' WHERE problem_id='toy/p0'")
        # another host's claim is not ours to judge: left alone
        assert run_attempts(probs, db, spec, k=1, attempt_fn=bench_fakes.coin_attempt).done == 0
        host = db.conn.execute("SELECT owner FROM attempts WHERE problem_id='toy/p1'").fetchone()[0].rsplit(":", 2)[0]
        db.conn.execute("UPDATE attempts SET owner=? WHERE problem_id='toy/p0'", (f"{host}:999999999:5",))
        stats = run_attempts(probs, db, spec, k=1, attempt_fn=bench_fakes.coin_attempt)
        assert stats.reclaimed == 1 and stats.done == 1
        assert {r["status"] for r in _rows(db, spec)} == {"done"}


def test_bad_references_and_arguments():
    with pytest.raises(RunError, match="module:function"):
        resolve_attempt_fn("nocolon")
    with pytest.raises(RunError, match="cannot load"):
        resolve_attempt_fn("bench_fakes:nope")
    with pytest.raises(RunError):
        run_attempts([], None, _spec(), k=0)  # type: ignore[arg-type]


def test_ray_backend_import_guard(tmp_path, monkeypatch):
    # without ray (hidden here when it is installed) the guard gives a clear RunError
    monkeypatch.setitem(sys.modules, "ray", None)
    with ResultsDB(tmp_path / "r.db") as db, pytest.raises(RunError, match=r"pip install 'agentic-prover\[ray\]'"):
        run_attempts(_problems(1), db, _spec(), k=1, backend="ray", attempt_fn=bench_fakes.coin_attempt)


def test_ray_backend_logic_with_a_stand_in_ray(tmp_path, monkeypatch):
    """The driver loop of the Ray backend, over a synchronous stand-in for the ``ray`` module
    (no Ray needed): every attempt recorded once, errors kept as data."""
    import types

    class Ref:
        def __init__(self, value):
            self.value = value

    class Remote:
        def __init__(self, fn):
            self.fn = fn

        def remote(self, *args):
            return Ref(self.fn(*args))

    fake = types.SimpleNamespace(
        is_initialized=lambda: True,
        remote=lambda **kw: Remote,
        wait=lambda refs, num_returns, timeout: (refs[:num_returns], refs[num_returns:]),
        get=lambda ref: ref.value,
        cancel=lambda ref, force: None,
    )
    monkeypatch.setitem(sys.modules, "ray", fake)
    probs, spec = _problems(4), _spec()
    with ResultsDB(tmp_path / "r.db") as db:
        stats = run_attempts(probs, db, spec, k=2, workers=3, backend="ray", attempt_fn="bench_fakes:coin_attempt")
        assert stats.done == 8
        rows = _rows(db, spec)
        assert len(rows) == 8 and {r["status"] for r in rows} == {"done"}
        assert run_attempts(probs, db, spec, k=2, backend="ray", attempt_fn="bench_fakes:coin_attempt").done == 0
        other = _spec(timeout=1.0)
        run_attempts(probs[:1], db, other, k=1, backend="ray", attempt_fn="bench_fakes:raising_attempt")
        assert _rows(db, other)[0]["outcome"] == "error"
