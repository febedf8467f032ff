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
