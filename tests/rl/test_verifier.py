"""Verifier: static screen (pure) and the real Rocq path (prescreen, full verdict, cache)."""


import pytest

from rl.curriculum import generate
from rl.verifier import Verifier, static_screen


@pytest.mark.parametrize("script", ["admit.", "Admitted.", "lia. Qed. Axiom x : False.", "exact I. (* c *)",
                                    "Unset Guard Checking.", "Require Import Foo.", "give_up.", "",
                                    "Lemma foo : True."])
def test_static_screen_rejects(script):
    assert static_screen(script) is not None


@pytest.mark.parametrize("script", ["lia.", "intros. ring.", "split. tauto. lia.", "reflexivity."])
def test_static_screen_allows(script):
    assert static_screen(script) is None




@pytest.mark.rocq
def test_real_verdicts_prescreen_and_cache():
    train, _ = generate(("lin_nat", "taut"), 1, 4, 1, seed=0)
    lin = next(p for p in train if p.family == "lin_nat")
    taut = next(p for p in train if p.family == "taut")
    v = Verifier(mode="checker", prescreen=True, cache=True, timeout=60)
    try:
        ok = v.verdict(lin, "lia.")
        assert ok.accepted and ok.source == "checker" and ok.fresh_checks == 1
        bad = v.verdict(taut, "lia.")
        assert not bad.accepted and bad.source == "prescreen" and bad.fresh_checks == 0
        extra = v.verdict(lin, "lia. lia.")  # proof already complete: "No such goal"
        assert not extra.accepted
        again = v.verdict(lin, "lia.")
        assert again.accepted and again.source == "cache:checker" and v.cache_hits == 1
        assert not v.verdict(lin, "admit.").accepted and v.fresh_checks == 1
    finally:
        v.close()


@pytest.mark.rocq
def test_without_prescreen_every_candidate_gets_a_fresh_checker():
    train, _ = generate(("taut",), 1, 2, 1, seed=0)
    v = Verifier(mode="checker", prescreen=False, cache=False, timeout=60)
    assert v.verdict(train[0], "tauto.").accepted
    r = v.verdict(train[0], "lia.")
    assert not r.accepted and r.source == "checker" and v.fresh_checks == 2


@pytest.mark.rocq
def test_goal_credit_progress_counts_closed_goals():
    from rl.records import Problem

    p = Problem(id="c1", family="conj", difficulty=1, split="train", header="From Coq Require Import Lia.",
                name="c1", statement="(P Q : Prop) (x y : nat) : (P -> P) /\\ x <= x + 1", witness="split. tauto. lia.")
    v = Verifier(mode="checker", prescreen=True, cache=True, timeout=60)
    try:
        # split: 1 goal -> 2 open; tauto closes one -> closed 1, open 1 -> 0.5
        assert v.progress(p, "split. tauto.") == pytest.approx(0.5)
        assert v.progress(p, "split. tauto. congruence.") == pytest.approx(0.5)  # stops at the error
        assert v.progress(p, "tauto.") == 0.0 and v.progress(p, "lia.") == 0.0
        assert v.progress(p, "split. tauto. lia.") == 1.0
        assert v.verdict(p, "split. tauto. lia.").accepted
    finally:
        v.close()
