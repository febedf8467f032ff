"""The corpus: proofs written in the styles published proofs use, beside cheats of the same styles.

Data: tests/data/soundness/corpus/{lean,rocq}/{problems,honest,cheats}/ (format: ../data/soundness/
README.md; the ``style`` field names the construct). Lean honest proofs must pass the static
screens (no Lean here; the proof assistant decides the rest), Rocq honest proofs the FULL verdict
with real coqc (``rocq`` marker; default requires as ``prover-check`` uses them). Every cheat is
rejected; the cheats also run in test_adversarial.py. Published files are used verbatim where the
licence allows (see the corpus README for attribution).
"""

from __future__ import annotations

import pytest
from soundness_suite import CORPUS, load

from lean_tools.soundness import STDLIB_REQUIRES, BadProblem, verify
from lean_tools.soundness.verify import parse_problem
from prover.commands.check import main

LEAN_HONEST = load("lean", "honest", CORPUS)
LEAN_CHEATS = load("lean", "cheats", CORPUS)
ROCQ_HONEST = load("rocq", "honest", CORPUS)
ROCQ_CHEATS = load("rocq", "cheats", CORPUS)


def test_every_style_has_honest_proofs_and_cheats():
    for honest, cheats in ((LEAN_HONEST, LEAN_CHEATS), (ROCQ_HONEST, ROCQ_CHEATS)):
        styles = {c.style for c in honest} - {"published"}
        assert all(c.style for c in honest + cheats)
        assert styles <= {c.style for c in cheats}, styles - {c.style for c in cheats}
    lean_styles = {c.style for c in LEAN_HONEST}
    assert {"open-in", "set-option-in", "section", "namespace", "readonly", "column-0", "interleaved",
            "attributes", "compfiles", "published"} <= lean_styles
    assert {"interleaved", "ltac2", "hammer"} <= {c.style for c in ROCQ_HONEST}


@pytest.mark.parametrize("case", LEAN_HONEST, ids=lambda c: c.id)
def test_lean_honest_passes_the_static_screens(case):
    problem, candidate = case.texts()
    v = verify(problem, candidate, "lean", case.theorem, static_only=True)
    assert v.stage == "candidate" and "passed static checks" in v.reason, f"{case.id}: {v.reason}"


@pytest.mark.parametrize("case", LEAN_CHEATS, ids=lambda c: c.id)
def test_lean_cheat_rejected(case):
    problem, candidate = case.texts()
    v = verify(problem, candidate, "lean", case.theorem, static_only=True)
    rules = {f["rule"] for f in v.details.get("findings", [])}
    assert not v.accepted and rules & set(case.static), f"{case.id}: {sorted(rules)}: {v.reason}"


@pytest.mark.rocq
@pytest.mark.parametrize("case", ROCQ_HONEST, ids=lambda c: c.id)
def test_rocq_honest_accepted_by_the_full_verdict(case):
    problem, candidate = case.texts()
    v = verify(problem, candidate, "rocq", case.theorem, allowed_requires=STDLIB_REQUIRES)
    assert v.accepted, f"{case.id}: {v.stage}: {v.reason}"


@pytest.mark.rocq
@pytest.mark.parametrize("case", ROCQ_CHEATS, ids=lambda c: c.id)
def test_rocq_cheat_rejected_by_the_full_verdict(case):
    problem, candidate = case.texts()
    v = verify(problem, candidate, "rocq", case.theorem, allowed_requires=STDLIB_REQUIRES)
    assert not v.accepted, f"{case.id} accepted: {v.reason}"


def test_compfiles_problem_is_the_target_never_a_helper():
    published = next(c for c in LEAN_HONEST if c.style == "published").path.read_text(encoding="utf-8")
    assert parse_problem(published, "lean").theorem_name == "imo1959_p1"  # not the `calculation` lemma


@pytest.mark.parametrize(
    ("problem", "needle"),
    [("two_open.lean", "cannot tell with certainty"), ("compfiles_open_answer.lean", "leaves open")],
)
def test_uncertain_or_open_problems_exit_2(problem, needle, tmp_path, capsys):
    path = CORPUS / "lean" / "problems" / problem
    with pytest.raises(BadProblem, match=needle):
        verify(path.read_text(encoding="utf-8"), path.read_text(encoding="utf-8"), "lean", static_only=True)
    cand = tmp_path / "cand.lean"
    cand.write_text(path.read_text(encoding="utf-8").replace("sorry", "by simp"), encoding="utf-8")
    assert main([str(path), str(cand), "--static-only"]) == 2
    err = capsys.readouterr().err
    assert needle in err and "\n" not in err.strip() and "Traceback" not in err
