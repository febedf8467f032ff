"""Lean tier (needs `lake` and the built lean_project/): honest proofs accepted, the axiom check
rejects what the static rules would also reject, and the elaborated-statement check rejects
meaning changes under identical text (local instance, notation). Marker ``lean``: skipped where no
Lean toolchain is installed (``tests/conftest.py``)."""

from __future__ import annotations

import pytest
from soundness_suite import load

from lean_tools.soundness import verify

pytestmark = pytest.mark.lean


@pytest.mark.parametrize("case", load("lean", "honest"), ids=lambda c: c.id)
def test_lean_honest_accepted(case):
    problem, candidate = case.texts()
    v = verify(problem, candidate, "lean", timeout=600)
    assert v.accepted, v.reason


@pytest.mark.parametrize("stem", ["l01_sorry", "l03_native_decide", "l04_axiom"])
def test_lean_cheat_rejected_by_lean_alone(stem):
    case = next(c for c in load("lean", "cheats") if c.path.stem == stem)
    problem, candidate = case.texts()
    v = verify(problem, candidate, "lean", timeout=600, skip_static=True)
    assert not v.accepted and v.stage in ("compile", "axioms"), v.reason


# --- elaborated-statement check (lean_verify); written without Lean, never run here ---------

_SCOPED_PROBLEM = """import Mathlib

universe u

namespace Foo
def g : ℕ := 1
open Nat in
set_option maxHeartbeats 400000 in
theorem Bar.thm (α : Type u) (xs : List α) (x : ℕ) : xs.length + x + g = g + x + xs.length := by
  sorry
end Foo
"""


def test_lean_statement_check_accepts_namespaces_in_chains_and_universes():
    cand = _SCOPED_PROBLEM.replace("  sorry", "  omega")
    v = verify(_SCOPED_PROBLEM, cand, "lean", timeout=600)
    assert v.accepted, v.reason


def test_lean_statement_check_accepts_helpers_and_match_in_statement():
    problem = "import Mathlib\n\ntheorem m (n : ℕ) : (match n with | 0 => 0 | k + 1 => k + 1) = n := by\n  sorry\n"
    cand = problem.replace("theorem m", "theorem aux_lemma (n : ℕ) : n = n := rfl\n\ntheorem m").replace(
        "  sorry", "  cases n <;> rfl"
    )
    v = verify(problem, cand, "lean", timeout=600)
    assert v.accepted, v.reason


@pytest.mark.parametrize("stem", ["l09_local_instance", "l18_notation"])
def test_lean_meaning_change_rejected_by_statement_check(stem):
    case = next(c for c in load("lean", "cheats") if c.path.stem == stem)
    problem, candidate = case.texts()
    v = verify(problem, candidate, "lean", timeout=600, skip_static=True)
    assert not v.accepted and v.stage == "statement", v.reason
