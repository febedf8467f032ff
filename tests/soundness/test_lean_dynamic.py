"""Lean tier (needs `lake` and the built lean_project/): honest proofs accepted, the axiom check
rejects what the static rules would also reject. Skipped where Lean is not installed; never
run on the machine this was written on (no Lean toolchain there)."""

from __future__ import annotations

import pytest
from soundness_suite import load

from lean_tools.soundness import verify
from lean_tools.types import NotInstalled


def _lean_available() -> bool:
    from lean_tools.lean.checker import LeanChecker

    try:
        LeanChecker()._prefix()
        LeanChecker()._project()
    except NotInstalled:
        return False
    return True


pytestmark = [
    pytest.mark.lean,
    pytest.mark.skipif(not _lean_available(), reason="Lean toolchain not installed"),
]


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
