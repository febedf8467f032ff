"""The adversarial suite: cheats rejected for the right reason, honest proofs accepted.

Tiers: the static tests need no proof assistant. Tests marked ``rocq`` run coqc: honest Rocq
proofs through the full ``verify``; every Rocq cheat once more with the static rules
skipped, to show the proof-assistant layer (compile, elaborated statement identity, Print
Assumptions) rejects it on its own wherever the cheat is not just a policy violation.
"""

from __future__ import annotations

import pytest
from soundness_suite import CORPUS, load

from lean_tools.soundness import verify
from lean_tools.types import NotInstalled

ROCQ_CHEATS = load("rocq", "cheats") + load("rocq", "cheats", CORPUS)
ROCQ_HONEST = load("rocq", "honest")
# The corpus's cheats (tests/data/soundness/corpus/, built from each construct the verdict
# allows since published proofs use it) are part of the adversarial suite too.
LEAN_CHEATS = load("lean", "cheats") + load("lean", "cheats", CORPUS)
LEAN_HONEST = load("lean", "honest")


def test_suite_size():
    assert len(ROCQ_CHEATS) >= 25 and len(ROCQ_CHEATS) + len(LEAN_CHEATS) >= 40
    assert len(ROCQ_HONEST) >= 15 and len(ROCQ_HONEST) + len(LEAN_HONEST) >= 20
    assert all(c.kind == "cheat" for c in ROCQ_CHEATS + LEAN_CHEATS)
    assert all(c.kind == "honest" for c in ROCQ_HONEST + LEAN_HONEST)
    assert all(c.problem.exists() for c in ROCQ_CHEATS + LEAN_CHEATS + ROCQ_HONEST + LEAN_HONEST)


def _static_cases():
    return [c for c in ROCQ_CHEATS + LEAN_CHEATS if c.static != ("none",)]


@pytest.mark.parametrize("case", _static_cases(), ids=lambda c: c.id)
def test_cheat_rejected_statically_for_the_right_reason(case):
    problem, candidate = case.texts()
    v = verify(problem, candidate, case.language, case.theorem, static_only=True)
    assert not v.accepted
    assert v.stage in ("candidate", "screen"), v.reason
    rules = {f["rule"] for f in v.details.get("findings", [])}
    assert rules & set(case.static), f"{case.id}: expected one of {case.static}, got {sorted(rules)}: {v.reason}"
    assert "\n" not in v.reason


@pytest.mark.parametrize("case", LEAN_HONEST + ROCQ_HONEST, ids=lambda c: c.id)
def test_honest_passes_static_rules(case):
    problem, candidate = case.texts()
    v = verify(problem, candidate, case.language, case.theorem, static_only=True)
    assert v.stage == "candidate" and "passed static checks" in v.reason, v.reason


@pytest.mark.parametrize("case", LEAN_CHEATS, ids=lambda c: c.id)
def test_lean_cheat_rejected_by_full_verify_without_lean(case):
    problem, candidate = case.texts()
    v = verify(problem, candidate, "lean", case.theorem)  # static rules decide before Lean is needed
    assert not v.accepted and v.stage in ("candidate", "screen")


@pytest.mark.rocq
@pytest.mark.parametrize("case", ROCQ_HONEST, ids=lambda c: c.id)
def test_rocq_honest_accepted(case):
    problem, candidate = case.texts()
    v = verify(problem, candidate, "rocq", case.theorem, timeout=120)
    assert v.accepted, f"{case.id}: {v.stage}: {v.reason}"
    assert v.stage == "accepted"


@pytest.mark.rocq
@pytest.mark.parametrize("case", ROCQ_CHEATS, ids=lambda c: c.id)
def test_rocq_cheat_full_verify(case):
    problem, candidate = case.texts()
    v = verify(problem, candidate, "rocq", case.theorem, timeout=120)
    assert not v.accepted, f"{case.id} was accepted: {v.reason}"
    if case.static == ("none",):
        assert v.stage == case.dynamic, v.reason


@pytest.mark.rocq
@pytest.mark.parametrize("case", [c for c in ROCQ_CHEATS if c.dynamic != "none"], ids=lambda c: c.id)
def test_rocq_cheat_proof_assistant_layer_alone(case):
    """Defence in depth: with the static rules skipped, coqc + the query still reject."""
    problem, candidate = case.texts()
    v = verify(problem, candidate, "rocq", case.theorem, timeout=120, skip_static=True)
    if case.dynamic == "accepted":
        # Only a policy rule stops this one (e.g. an extra Require); coqc alone accepts it.
        assert v.accepted, v.reason
    else:
        assert not v.accepted and v.stage == case.dynamic, f"{case.id}: {v.stage}: {v.reason}"


def test_lean_honest_needs_lean_for_a_verdict():
    from lean_tools.lean.checker import LeanChecker

    case = LEAN_HONEST[0]
    problem, candidate = case.texts()
    try:
        LeanChecker()._prefix()
        LeanChecker()._project()
    except NotInstalled:
        with pytest.raises(NotInstalled):
            verify(problem, candidate, "lean")
    else:  # pragma: no cover - a machine with Lean
        pytest.skip("Lean is installed here; the lean-marked tier covers it")


@pytest.mark.rocq
def test_rocq_allowed_require_in_helpers():
    from lean_tools.parsing import parse_source

    problem = next(c for c in ROCQ_HONEST if c.path.stem.startswith("h15")).problem.read_text(encoding="utf-8")
    cand = parse_source(problem, "rocq").render("nra.", helpers="Require Import Lra Psatz.")
    assert verify(problem, cand, "rocq", static_only=True).stage == "screen"
    v = verify(problem, cand, "rocq", allowed_requires={"Lra", "Psatz"})
    assert v.accepted, v.reason
