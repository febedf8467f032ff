"""Pieces that need no proof assistant: budget, cache, live view, prompts, agent tool errors."""

import io
import threading

import pytest
from rich.console import Console

from prover import prompts
from prover.budget import Budget
from prover.cache import LemmaCache, lemma_key
from prover.config import BudgetConfig
from prover.errors import BudgetExceeded, Interrupted
from prover.records import LemmaSpec
from prover.trace import Trace
from prover.view import LiveView


def test_budget_limits_and_cancel():
    b = Budget(BudgetConfig(tokens=100, attempts=2))
    b.charge_llm(60, 30)
    b.check()
    b.charge_llm(5, 5)
    with pytest.raises(BudgetExceeded) as e:
        b.check()
    assert e.value.which == "tokens" and b.stopped_by == "tokens"
    b2 = Budget(BudgetConfig(), cancel=threading.Event())
    b2.cancel()
    with pytest.raises(Interrupted):
        b2.check()
    s = b.spent()
    assert (s.tokens_in, s.tokens_out, s.llm_calls) == (65, 35, 2)


def test_search_sources_are_reported_apart_from_the_llm_budget():
    b = Budget(BudgetConfig(tokens=100))
    b.charge_search_sources(model_calls=3, model_tokens=500, model_s=2.25, knn_s=0.5)
    b.charge_search_sources(model_calls=1, model_tokens=20, model_s=1.0, knn_s=0.0)
    b.check()  # the tactic model's 520 tokens are not the LLM backend's: no `tokens` stop
    s = b.spent()
    assert (s.tactic_model_calls, s.tactic_model_tokens, s.tactic_model_s, s.knn_s) == (4, 520, 3.25, 0.5)
    assert (s.llm_calls, s.tokens_out, s.checker_cpu_s) == (0, 0, 0.0)


def test_cache_persists_and_keys_ignore_names_and_comments(tmp_path):
    k1 = lemma_key("rocq", "Require Import Arith.", "Lemma a (n : nat) : n + 0 = n.", "a")
    k2 = lemma_key("rocq", "Require Import Arith.  (* c *)", "Lemma b (n : nat) :\n  n + 0 = n.", "b")
    k3 = lemma_key("rocq", "Require Import ZArith.", "Lemma a (n : nat) : n + 0 = n.", "a")
    assert k1 == k2 != k3
    path = tmp_path / "c.sqlite"
    c = LemmaCache(path)
    helper = LemmaSpec(name="h", declaration="Lemma h : True.", proof="exact I.")
    c.put(k1, language="rocq", name="a", declaration="Lemma a (n : nat) : n + 0 = n.", proof="lia.", helpers=(helper,))
    again = LemmaCache(path)
    assert again.get(k1) == ("lia.", (helper,)) and again.get(k3) is None
    assert len(again) == 1 and again.hits == 1 and again.misses == 1


def test_live_view_renders_lemma_tree():
    buf = io.StringIO()
    view = LiveView("thm", console=Console(file=buf, width=100))
    tr = Trace(None)
    tr.listen(view.on_event)
    tr.emit("stage", problem="thm", stage="sketch round 0")
    tr.emit("sketch", problem="thm", round=0, lemmas=["a", "b"])
    tr.emit("lemma_start", problem="thm", lemma="a")
    tr.emit("split", problem="thm", lemma="a", ok=True, sublemmas=["a1"])
    tr.emit("lemma", problem="thm", lemma="a1", proved=True, source="agent")
    tr.emit(
        "llm_call", problem="thm", backend="scripted", model="m", prompt_tokens=10, completion_tokens=5, seconds=0.1,
        tool_calls=[], error=None,
    )
    tr.emit("lemma", problem="thm", lemma="b", proved=False, reason="gave up")
    view.console.print(view.render())
    out = buf.getvalue()
    assert "a: proving" in out and "a1: proved" in out and "b: failed" in out and "tokens 15" in out


def test_every_prompt_renders_for_both_languages():
    from lean_tools.assistant import ASSISTANTS

    for pa in ASSISTANTS.values():
        v = dict(pa.prompt_values)
        assert "```" in prompts.render("informal", statement_block="T", **v)
        assert "theorem `t`" in prompts.render("sketch", theorem_name="t", context="c", declaration="d", informal="i", feedback="", **v)
        prompts.render("sketch_repair", errors="e", theorem_name="t", **v)
        prompts.render("sketch_feedback", failed="- x")
        prompts.render("agent_system", **v)
        prompts.render("agent_task", declaration="d", context="c", surroundings="", notes="", **v)
    with pytest.raises(KeyError):
        prompts.render("sketch", theorem_name="t")


def test_external_cancel_event_is_read_not_written():
    shared = threading.Event()
    b = Budget(BudgetConfig(), cancel=shared)
    b.check()
    b.cancel()
    assert not shared.is_set()
    with pytest.raises(Interrupted):
        b.check()
    b2 = Budget(BudgetConfig(), cancel=shared)
    shared.set()
    assert b2.exceeded() == "interrupt"
