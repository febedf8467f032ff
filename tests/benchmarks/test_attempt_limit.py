"""A search attempt ends itself before the runner would kill its worker: the worker's own alarm
fires 5 s before the runner's hard limit, and the search's deadline, counted from the attempt's
start, leaves time for the re-check before that alarm."""

from __future__ import annotations

from pathlib import Path

from benchmarks.presets import RECHECK_RESERVE_S, _search, attempt_limit, get_preset, set_budget
from benchmarks.problem import BenchProblem
from benchmarks.runner import hard_limit
from benchmarks.suites import normalize_rocq
from prover.search import SearchResult

DATA = Path(__file__).resolve().parents[1] / "data" / "search"


def test_the_workers_alarm_fires_before_the_runner_kills_it():
    reprove = set_budget(get_preset("default").config, 30.0)  # prover-bench run --timeout 30
    assert attempt_limit(reprove, 30.0) == hard_limit(30.0) - 5 == 55
    minif2f = get_preset("default").config  # a 5 s budget under the suite's 60 s timeout: its own limit
    assert attempt_limit(minif2f, 60.0) == 60 < hard_limit(60.0)


def _budget_seen(monkeypatch, config: dict, wall_cap: float | None):
    import prover.search

    seen = []

    def prove_goal(*args, **kwargs):
        seen.append(args[4])
        return SearchResult(proved=False, reason="budget")

    monkeypatch.setattr(prover.search, "prove_goal", prove_goal)
    problem = BenchProblem(suite="t", name="p", language="rocq", text=normalize_rocq((DATA / "with_admitted.v").read_text()))
    _search(problem, config, t0=0.0, wall_cap=wall_cap)
    return seen[0]


def test_the_search_stops_before_the_attempts_own_limit(monkeypatch):
    config = set_budget(get_preset("default").config, 30.0)
    budget = _budget_seen(monkeypatch, config, wall_cap=55 - RECHECK_RESERVE_S)
    assert budget.clock == "cpu" and budget.seconds == 30.0 and budget.wall_factor == 4.0  # the preset's, unchanged
    assert budget.deadline == 45.0  # the attempt started at t0 = 0: 45 s after it, loading included
