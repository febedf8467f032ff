"""Validation pass with real coqc on a mix of good and broken statements; cached; Lean unvalidated."""

import shutil

import pytest

from benchmarks import validate as val
from benchmarks.db import ResultsDB
from benchmarks.problem import BenchProblem

pytestmark = pytest.mark.rocq

GOOD = "Require Import Arith.\nTheorem good (n : nat) : n + 0 = n.\nProof.\nAdmitted.\n"
GOOD_REALS = "Require Import Reals.\nOpen Scope R_scope.\nTheorem good_r (x : R) : x * 1 = x.\nProof.\nAdmitted.\n"
TYPE_ERROR = "Theorem bad_type (n : nat) : n + true = n.\nProof.\nAdmitted.\n"
MISSING_LIB = "From NoSuchLibrary Require Import Foo.\nTheorem bad_lib : True.\nProof.\nAdmitted.\n"
SYNTAX = "Theorem bad_syntax : forall n : nat, n = .\nProof.\nAdmitted.\n"
LEAN = "theorem lean_one : 1 + 1 = 2 := by\n  sorry\n"


def _p(name, text, language="rocq"):
    return BenchProblem(suite="mix", name=name, language=language, text=text)


def test_mix_of_good_and_broken_statements(tmp_path, monkeypatch):
    problems = [_p("good", GOOD), _p("good_r", GOOD_REALS), _p("bad_type", TYPE_ERROR), _p("bad_lib", MISSING_LIB),
                _p("bad_syntax", SYNTAX), _p("lean_one", LEAN, "lean")]
    monkeypatch.setattr(shutil, "which", lambda b, *a, _w=shutil.which, **k: None if b == "lake" else _w(b, *a, **k))
    val.environment.cache_clear()
    with ResultsDB(tmp_path / "r.db") as db:
        res = {v.problem_id.split("/")[1]: v for v in val.validate(problems, db, workers=2)}
        assert res["good"].status == "ok" and res["good_r"].status == "ok"
        assert res["bad_type"].status == "failed" and "line 1" in res["bad_type"].reason
        assert res["bad_lib"].status == "failed" and "NoSuchLibrary" in res["bad_lib"].reason
        assert res["bad_syntax"].status == "failed" and res["bad_syntax"].reason
        assert res["lean_one"].status == "unvalidated" and "lake" in res["lean_one"].reason
        assert res["good"].environment.startswith("coqc 8.") or res["good"].environment.startswith("coqc ")

        # cached: a second pass runs no checker for the Rocq ones
        calls = []
        monkeypatch.setattr(val, "check_statement", lambda p, t: calls.append(p.name) or ("ok", "", 0.0))
        again = {v.problem_id.split("/")[1]: v.status for v in val.validate(problems, db)}
        assert again["bad_type"] == "failed" and again["good"] == "ok"
        assert calls == ["lean_one"]  # unvalidated results are retried (a toolchain may have appeared)

        # a changed statement is re-validated
        calls.clear()
        fixed = _p("bad_type", "Theorem bad_type (n : nat) : n + 0 = n.\nProof.\nAdmitted.\n")
        val.validate([fixed], db)
        assert calls == ["bad_type"]
    val.environment.cache_clear()
