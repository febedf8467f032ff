"""The agent's tools against real Rocq (no model): goals, library search, python, automation."""

import pytest
from prover_testlib import DATA

from prover.budget import Budget
from prover.config import load_config
from prover.problem import load_problem
from prover.trace import Trace
from prover.workspace import Workspace

pytestmark = pytest.mark.rocq
DECL = "Lemma x (n m : nat) : n <= m -> 2 * n <= 2 * m."


@pytest.fixture
def ws(pool):
    cfg = load_config(env={}, prover__python_timeout_s=2.0)
    return Workspace(load_problem(DATA / "double_le.v"), cfg, Budget(cfg.budget), Trace(None), pool)


def test_goals_and_checks(ws):
    g = ws.goals_after("", DECL, "intros H.")
    assert g.ok and "H : n <= m" in g.goals[0]
    bad = ws.check_decl("", DECL, "intros H. exact H.")
    assert not bad.complete and bad.errors
    assert "Errors:" in bad.feedback()
    good = ws.check_decl("", DECL, "intros; lia.")
    assert good.complete and good.feedback().startswith("OK")
    holed = ws.check_decl("", DECL, "admit.")
    assert not holed.complete


def test_library_search(ws):
    out = ws.search_library("(_ * _ <= _ * _)")
    assert "Nat.mul_le_mono_l" in out and "Welcome" not in out
    assert ws.search_library("Foo. Require Bar").startswith("error")


def test_python_tool_is_sandboxed(ws):
    out = ws.run_python("print(6 * 7)")
    assert out.startswith("[exit 0]") and "42" in out
    slow = ws.run_python("while True: pass")
    assert slow.startswith("[timed out]")


def test_automation_on_a_lemma(ws):
    out = ws.run_search(DECL, 20.0, label="x")
    assert out.proved and out.proof and "Require" not in out.proof
    assert ws.check_decl("", DECL, out.proof).complete


def test_hammer_alone_gets_the_seconds_it_is_given(ws, monkeypatch):
    """``run_search(..., hammer="only")`` (the ``hammer`` tool) lets CoqHammer use the call's own
    seconds, even past ``search.hammer_timeout_s`` (which is only the tool's default budget)."""
    import prover.search as search

    seen = []

    def record(pool, header, stmt, language, budget, **kw):
        seen.append(budget)
        return search.SearchResult(proved=False, reason="recorded")

    monkeypatch.setattr(search, "prove_goal", record)
    assert ws.config.search.hammer_timeout_s < 50
    ws.run_search(DECL, 50.0, label="x", hammer="only")
    ws.run_search(DECL, 50.0, label="x")
    assert (seen[0].hammer, seen[0].hammer_seconds) == ("only", 50.0)
    assert seen[1].hammer_seconds == ws.config.search.hammer_timeout_s
