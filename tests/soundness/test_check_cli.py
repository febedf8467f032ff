"""``prover-check``: exit codes 0 (proved) / 1 (not proved, one-line reason) / 2 (bad input)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from soundness_suite import load

from prover.commands.check import main

ROOT = Path(__file__).resolve().parents[2]
ROCQ_HONEST = load("rocq", "honest")
ALL_CHEATS = load("rocq", "cheats") + load("lean", "cheats")


def _theorem(case) -> list[str]:
    """``--theorem NAME`` for a case whose problem has several unproved theorems."""
    return ["--theorem", case.theorem] if case.theorem else []


def run(capsys, *args):
    code = main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("case", [c for c in ALL_CHEATS if c.static != ("none",)], ids=lambda c: c.id)
def test_cli_rejects_every_static_cheat(case, capsys):
    code, out, _ = run(capsys, case.problem, case.path, *_theorem(case), "--static-only")
    assert code == 1
    assert out.startswith("REJECTED") and out.count("\n") == 1


def test_cli_bad_input(tmp_path, capsys):
    p = tmp_path / "p.v"
    p.write_text("Theorem t : True.\nProof.\nAdmitted.\n")
    code, _, err = run(capsys, p, tmp_path / "missing.v")
    assert code == 2 and "not found" in err
    code, _, err = run(capsys, tmp_path / "missing.v", p)
    assert code == 2 and "not found" in err
    q = tmp_path / "p.txt"
    q.write_text("x")
    code, _, err = run(capsys, q, p)
    assert code == 2 and "suffix" in err
    lean = tmp_path / "c.lean"
    lean.write_text("theorem t : True := trivial\n")
    code, _, err = run(capsys, p, lean)
    assert code == 2 and "same language" in err
    bad = tmp_path / "bad.v"
    bad.write_text("Definition x := 1.\n")
    code, _, err = run(capsys, bad, p)
    assert code == 2 and "no theorem" in err and err.count("\n") == 1
    code, _, err = run(capsys, p, p, "--theorem", "nope")
    assert code == 2 and "not found" in err
    code, _, _ = run(capsys, p, p, "--timeout", "0")
    assert code == 2
    code, _, _ = run(capsys, p)
    assert code == 2


def test_cli_candidate_parse_failure_is_a_rejection(tmp_path, capsys):
    p = tmp_path / "p.v"
    p.write_text("Theorem t : True.\nProof.\nAdmitted.\n")
    c = tmp_path / "c.v"
    c.write_text("Theorem t : True.\nProof. exact I. Qed.\n(* unterminated\n")
    code, out, _ = run(capsys, p, c)
    assert code == 1 and "unterminated comment" in out


def test_cli_lean_without_lean_says_what_to_do(capsys):
    from lean_tools.lean.checker import LeanChecker
    from lean_tools.types import NotInstalled

    try:
        LeanChecker()._prefix()
        LeanChecker()._project()
    except NotInstalled:
        pass
    else:  # pragma: no cover
        pytest.skip("Lean is installed here")
    case = load("lean", "honest")[0]
    code, _, err = run(capsys, case.problem, case.path, *_theorem(case))
    assert code == 2 and "not installed" in err and err.count("\n") == 1


@pytest.mark.rocq
def test_cli_rocq_accept_and_reject_json(capsys):
    honest = next(c for c in ROCQ_HONEST if c.path.stem.startswith("h10"))
    code, out, _ = run(capsys, honest.problem, honest.path, "--json")
    v = json.loads(out)
    assert code == 0 and v["accepted"] and "Classical_Prop.classic" in v["details"]["axioms"]
    cheat = next(c for c in load("rocq", "cheats") if c.static == ("none",))
    code, out, _ = run(capsys, cheat.problem, cheat.path)
    assert code == 1 and out.startswith("REJECTED") and "coqc rejected" in out


@pytest.mark.rocq
def test_cli_entrypoint_in_a_subprocess():
    honest = next(c for c in ROCQ_HONEST if c.path.stem.startswith("h02"))
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "prover.commands.check",
            str(honest.problem),
            str(honest.path),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("ACCEPTED nat_add")


@pytest.mark.slow
@pytest.mark.rocq
@pytest.mark.parametrize("case", ROCQ_HONEST, ids=lambda c: c.id)
def test_cli_accepts_every_honest_rocq_proof(case, capsys):
    code, out, _ = run(capsys, case.problem, case.path, *_theorem(case))
    assert code == 0, out


@pytest.mark.slow
@pytest.mark.rocq
@pytest.mark.parametrize("case", load("rocq", "cheats"), ids=lambda c: c.id)
def test_cli_rejects_every_rocq_cheat_with_coqc(case, capsys):
    code, out, _ = run(capsys, case.problem, case.path, *_theorem(case))
    assert code == 1, out
