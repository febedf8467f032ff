"""Published-style trials: correct proofs written the way published files are must get through.

Data: tests/data/soundness/published_style/{rocq,lean}/ (p_NAME problem, c_NAME candidate; README).
Default tier: the static layers only (no proof assistant), for both languages; every pair passes
them except the few rejected on purpose, each for its named reason. ``slow`` + ``rocq``: the
full Rocq verdict (coqc, statement identity, Print Assumptions) with ``prover-check``'s default
requires, as measured for docs/verdict.md. Cheats against each allowance live in the adversarial
suite (tests/data/soundness/{rocq,lean}/cheats, corpus/*/cheats).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lean_tools.soundness import STDLIB_REQUIRES, verify

DATA = Path(__file__).resolve().parents[1] / "data" / "soundness" / "published_style"
SUFFIX = {"rocq": ".v", "lean": ".lean"}
REJECTED_ON_PURPOSE = {
    # two layers guard a statement's meaning: notations stay out even where constr_eq would catch them
    "r05_local_notation": "rocq.banned",
    # helper Require outside the default list: policy, accepted with --allow-require
    "r07_coquelicot": "rocq.banned",
    "r25_coq_arith_qualified": "rocq.banned",
    # a Lean notation can add tokens: without Lean, the screens are the only defence
    "l06_local_notation": "lean.command",
    # #eval runs code that could change the environment before the .olean is written
    "l09_check_eval_after": "candidate.suffix",
}


def _pairs(language: str) -> list[tuple[str, Path, Path]]:
    out = []
    for c in sorted((DATA / language).glob("c_*" + SUFFIX[language])):
        name = c.stem[2:]
        out.append((name, DATA / language / f"p_{name}{SUFFIX[language]}", c))
    return out


ALL = [(lang, *pair) for lang in ("rocq", "lean") for pair in _pairs(lang)]


def test_trial_counts():
    assert len(_pairs("rocq")) >= 15 and len(_pairs("lean")) >= 15
    assert set(REJECTED_ON_PURPOSE) <= {name for _l, name, _p, _c in ALL}


@pytest.mark.parametrize(("language", "name", "problem", "candidate"), ALL, ids=lambda x: x if isinstance(x, str) else "")
def test_static_layers(language, name, problem, candidate):
    v = verify(
        problem.read_text(encoding="utf-8"),
        candidate.read_text(encoding="utf-8"),
        language,
        static_only=True,
        allowed_requires=STDLIB_REQUIRES,
    )
    if name in REJECTED_ON_PURPOSE:
        rules = {f["rule"] for f in v.details.get("findings", [])}
        assert not v.accepted and REJECTED_ON_PURPOSE[name] in rules, v.reason
    else:
        assert v.stage == "candidate" and "passed static checks" in v.reason, f"{name}: {v.reason}"


@pytest.mark.slow
@pytest.mark.rocq
@pytest.mark.parametrize(("name", "problem", "candidate"), _pairs("rocq"), ids=lambda x: x if isinstance(x, str) else "")
def test_rocq_full_verdict(name, problem, candidate):
    v = verify(
        problem.read_text(encoding="utf-8"),
        candidate.read_text(encoding="utf-8"),
        "rocq",
        allowed_requires=STDLIB_REQUIRES,
        timeout=300,
    )
    assert v.accepted == (name not in REJECTED_ON_PURPOSE), f"{name}: {v.stage}: {v.reason}"
