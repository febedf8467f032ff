"""The file's own equational lemmas as rewrite rules in induction steps (``induction-local-eq``)."""

from __future__ import annotations

import pytest

from prover.search.goal import ProblemContext, header_equations

HEADER = """\
Require Import List Lia.
Import ListNotations.
Fixpoint total (l : list nat) : nat := match l with [] => 0 | x :: t => x + total t end.
Fixpoint back {A : Type} (l : list A) : list A := match l with [] => [] | x :: t => back t ++ [x] end.
(* Lemma commented_out : total [] = 0. *)
Lemma total_app : forall l m, total (l ++ m) = total l + total m.
Proof. induction l; simpl; intros; [reflexivity | rewrite IHl; lia]. Qed.
Lemma total_le : forall l, total l <= total (0 :: l).
Proof. simpl; lia. Qed.
Lemma total_iff : forall l, total l = 0 <-> Forall (eq 0) l.
Admitted.
"""


def test_only_unconditional_equations_are_rewrite_rules():
    assert header_equations(HEADER) == ("total_app",)
    assert header_equations("Lemma a (x : nat) : x = x -> True.\nLemma b : forall n, f n = 2 * n.\n") == ("b",)
    assert ProblemContext.of(HEADER, "forall l, total (back l) = total l", "rocq").equations == ("total_app",)
    assert header_equations("") == ()


@pytest.mark.rocq
def test_an_induction_step_rewrites_with_an_earlier_lemma_of_the_file():
    from lean_tools.pool import SessionPool
    from prover.search import SearchBudget, prove_goal

    with SessionPool() as pool:
        stmt = "Lemma total_back : forall l, total (back l) = total l."
        r = prove_goal(pool, HEADER, stmt, "rocq", SearchBudget(seconds=30, hammer="off"))
    assert r.proved, r.reason
    assert "total_app" in (r.proof or "")


def test_the_files_lemmas_are_premises_by_the_head_of_their_conclusion():
    from prover.search.goal import conclusion_head, header_lemmas

    assert conclusion_head("forall l, (forall x, In x l -> ev x) -> ev (total l)") == "ev"
    assert conclusion_head(" ~ P x") == "P" and conclusion_head("1 = 1") == ""
    # total_iff is left Admitted: a proof through it would be no proof under the global context
    assert header_lemmas(HEADER) == (("total_app", "total"), ("total_le", "total"))


def test_rewrite_local_and_apply_local_propose_the_files_lemmas():
    from prover.search.family import Focus
    from prover.search.goal import Domain, parse_goal
    from prover.search.logic import apply_local
    from prover.search.rewriting import rewrite_local

    ctx = ProblemContext(equations=("total_app",), lemmas=(("ev_total", "ev"), ("other", "le")))
    g = parse_goal("  l : list nat\n  ============================\n  ev (total (l ++ l))", "rocq")
    f = Focus(g=g, d=Domain(), ctx=ctx, depth=1)
    assert [c.tactic for c in rewrite_local(f)] == ["rewrite total_app", "rewrite <- total_app"]
    assert [c.tactic for c in apply_local(f)] == ["solve [apply ev_total; solve [assumption | auto | eauto | lia]]"]
