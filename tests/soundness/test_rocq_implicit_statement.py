"""Statements with maximal implicit arguments: the statement identity check must compare the
constants themselves (``@name``), not applications with inserted evars."""

from __future__ import annotations

import pytest

from lean_tools.soundness import verify

PROBLEM = """\
Require Import List.
Import ListNotations.
Fixpoint snoc {A : Type} (l : list A) (x : A) : list A :=
  match l with
  | [] => [x]
  | y :: t => y :: snoc t x
  end.

Theorem snoc_length {A : Type} (l : list A) (x : A) : length (snoc l x) = S (length l).
Proof.
Admitted.
"""


@pytest.mark.rocq
def test_an_honest_proof_of_a_statement_with_an_implicit_type_is_accepted():
    candidate = PROBLEM.replace("Proof.\nAdmitted.", "Proof.\ninduction l; simpl; auto.\nQed.")
    v = verify(PROBLEM, candidate, "rocq", theorem="snoc_length", timeout=120)
    assert v.accepted, v.reason


@pytest.mark.rocq
def test_a_helper_that_changes_the_implicit_statement_is_still_rejected():
    cheat = PROBLEM.replace(
        "Theorem snoc_length",
        "Definition length {A : Type} (l : list A) := S (List.length l) - 1.\n\nTheorem snoc_length",
    ).replace("Proof.\nAdmitted.", "Proof.\nunfold length; induction l; simpl; auto.\nQed.")
    v = verify(PROBLEM, cheat, "rocq", theorem="snoc_length", timeout=120)
    assert not v.accepted
