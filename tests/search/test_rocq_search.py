"""The default prover on real Rocq (coqtop + coqc): small statements, and the benchmark's file handling."""

import shutil
from pathlib import Path

import pytest

from benchmarks.minif2f_default import prepare, split_problem
from lean_tools.rocq.session import RocqSession
from prover.search import SearchBudget, prove_goal

DATA = Path(__file__).parent.parent / "data" / "search"
needs_coq = pytest.mark.skipif(shutil.which("coqtop") is None or shutil.which("coqc") is None, reason="needs coqtop/coqc")


@pytest.fixture(autouse=True)
def _private_cwd(tmp_path, monkeypatch):
    """psatz writes `.csdp.cache` into coqtop's working directory: not into the repository."""
    monkeypatch.chdir(tmp_path)


def factory(header):
    return RocqSession(header, extra_args=("-w", "-all"))


def test_prepare_fixes_stdlib_and_closes_open_proof():
    text = prepare((DATA / "ends_at_proof.v").read_text())
    assert "From Stdlib" not in text and "From Coq Require Import Lia." in text
    assert text.rstrip().endswith("Proof.\nAdmitted.")
    same = (DATA / "with_admitted.v").read_text()
    assert prepare(same) == same


def test_split_problem_keeps_definitions_in_header():
    header, stmt, name = split_problem(prepare((DATA / "ends_at_proof.v").read_text()))
    assert name == "sample_ends_at_proof"
    assert "Definition g" in header and header.startswith("Require Import Arith.")
    assert stmt.startswith("Theorem sample_ends_at_proof (x : nat)") and stmt.endswith("x = 3.")


@pytest.mark.rocq
@needs_coq
@pytest.mark.parametrize(
    "stmt",
    [
        "Theorem t1 : forall x y : R, x < y -> x + 1 < y + 1 /\\ 0 <= 1.",
        "Theorem t2 (f : R -> R) (h : forall x, f x = 2 * x + 1) : f 3 = 7.",
        "Theorem t3 : forall a b : R, a <> 0 -> b <> 0 -> a * b = a - b -> a / b + b / a - a * b = 2.",
    ],
)
def test_proves_small_real_statements_and_rechecks(stmt):
    res = prove_goal(factory, "Require Import Reals.\nOpen Scope R_scope.", stmt, "rocq", SearchBudget(seconds=20))
    assert res.proved, res.reason
    assert res.proof.startswith("From Coq Require Import Lia Lra Psatz.")
    assert res.checker_seconds > 0 and res.attempts >= 1


@pytest.mark.rocq
@needs_coq
def test_local_definition_from_problem_file():
    header, stmt, _ = split_problem(prepare((DATA / "ends_at_proof.v").read_text()))
    res = prove_goal(factory, header, stmt, "rocq", SearchBudget(seconds=20))
    assert res.proved, res.reason
    assert "unfold g" in res.proof or "simpl" in res.proof


@pytest.mark.rocq
@needs_coq
def test_false_statement_is_not_proved_within_budget():
    res = prove_goal(factory, "Require Import Arith.", "Theorem bad : forall n : nat, n + 1 = n.", "rocq", SearchBudget(seconds=3))
    assert not res.proved
    assert res.reason in ("budget", "exhausted")
    assert res.wall_seconds < 30


@pytest.mark.rocq
@needs_coq
def test_benchmark_script_writes_rows_and_resumes(tmp_path, capsys):
    import json

    from benchmarks.minif2f_default import main

    split = tmp_path / "bench" / "valid"
    split.mkdir(parents=True)
    for f in DATA.glob("*.v"):
        (split / f.name).write_text(f.read_text())
    out = tmp_path / "rows.jsonl"
    assert main(["--split", "valid", "--dir", str(tmp_path / "bench"), "--out", str(out), "--workers", "1"]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["name"] for r in rows) == ["ends_at_proof", "with_admitted"]
    assert all(r["compiled"] and r["proved"] for r in rows)
    assert "solved 2/2" in capsys.readouterr().out
    assert main(["--split", "valid", "--dir", str(tmp_path / "bench"), "--out", str(out), "--workers", "1"]) == 0
    assert len(out.read_text().splitlines()) == 2  # resumed: nothing redone


@pytest.mark.rocq
@needs_coq
@pytest.mark.parametrize(
    "header, stmt, tag",
    [
        # unary nat cannot compute 7^222; the proof moves to Z and a modular power
        ("Require Import Arith.", "Theorem c1 : (7 ^ 222 + 3 ^ 50) mod 10 = 8.", "nat-compute"),
        ("Require Import ZArith.\nOpen Scope Z_scope.", "Theorem c2 : forall a : Z, a ^ 2 mod 4 = 0 \\/ a ^ 2 mod 4 = 1.", "mod-cases"),
        ("Require Import Arith.", "Theorem c3 (x y : nat) (h : x * y + 2 * x = 21) (h1 : 1 < x) : y = 1 \\/ y = 5.", "bound-split"),
        ("Require Import Arith.", "Theorem c4 : forall n : nat, exists k, n * n * n + 5 * n = 3 * k.", "witness"),
        ("Require Import Arith.", "Theorem c6 : forall x : nat, (x * x) mod 29 = 5 -> 11 <= x.", "least-split"),
        ("Require Import ZArith.\nOpen Scope Z_scope.", "Theorem c7 (a b : Z) (h0 : 0 < a) (h1 : 0 < b) (h2 : a * b * b + a = 20) : a = 2 \\/ a = 4 \\/ a = 10.", "bound-split"),
        ("Require Import ZArith.\nOpen Scope Z_scope.", "Theorem c5 (x : Z) (h0 : 0 <= x <= 10) (h1 : (x * x) mod 11 = 5) : x = 4 \\/ x = 7.", "interval-split"),
        # remainders pushed to the leaves, known remainders put in, computed (nat and Z)
        ("Require Import Arith.", "Theorem c8 (a b : nat) (h0 : a mod 13 = 5) (h1 : b mod 13 = 9) : ((a + 2) ^ 3 * (b + 1) ^ 2) mod 13 = 6.", "mod-push"),
        # real-number families: a completed square for nra; ln of a numeral is positive
        ("Require Import Reals.\nOpen Scope R_scope.", "Theorem c11 (a x : R) (h : 2 * x ^ 2 + 7 * x + a <= 0) : a <= 49 / 8.", "vertex-nra"),
        ("Require Import Reals.\nOpen Scope R_scope.", "Theorem c12 : ln (7 ^ 3) / ln 7 = 3.", "ln-pos"),
        # a sqrt equation squared; `up` of closed arguments evaluated through tech_up
        ("Require Import Reals.\nOpen Scope R_scope.", "Theorem c13 (x : R) (h : sqrt (2 * x - 5) = 3) : x = 7.", "sqrt-square"),
        ("Require Import Reals.\nOpen Scope R_scope.", "Theorem c14 : (Int_part (17 / 3) + up (sqrt 50))%Z = 13%Z.", "up-eval"),
        # exponents bounded by the numeral they multiply to, then every pair of values
        ("Require Import Arith.", "Theorem c15 (a b : nat) (h : 2 ^ a * 5 ^ b = 200) : a + b = 5.", "exp-bound"),
        # exponential equations: exponents compared through ln, logarithms on one base
        ("Require Import Reals.\nOpen Scope R_scope.", "Theorem c16 (x : R) (h : Rpower 9 x = Rpower 3 (x + 4)) : x = 4.", "exp-log"),
        ("Require Import Reals.\nOpen Scope R_scope.", "Theorem c17 (x : R) (h : Rpower 2 (x + 1) = 32) : x = 4.", "ln-factor"),
        # a functional equation instantiated where the goal evaluates it, and at the reciprocal
        ("Require Import Reals.\nOpen Scope R_scope.", "Theorem c18 (f : R -> R) (h : forall x, x <> 0 -> f x + 2 * f (/ x) = 3 * x) : f 3 = -7/3.", "instantiate"),
        # trigonometry: sin^2 + cos^2 = 1 for nra, the table of special values, double angles
        ("Require Import Reals.\nOpen Scope R_scope.", "Theorem c19 (x : R) (h : sin x = 3 / 5) (h2 : 0 < cos x) : cos x = 4 / 5.", "trig-nra"),
        ("Require Import Reals.\nOpen Scope R_scope.", "Theorem c20 : 2 * cos (PI / 3) + sin (PI / 6) = 3 / 2.", "trig-values"),
        ("Require Import Reals.\nOpen Scope R_scope.", "Theorem c21 (x : R) (h : sin x = 1 / 3) : cos (2 * x) = 7 / 9.", "trig-expand"),
        # a recurrence unrolled up to the value asked for; a definition rewritten under `map`
        ("Require Import Reals.\nOpen Scope R_scope.", "Theorem c22 (u : nat -> R) (h0 : u 0%nat = 1) (h1 : u 1%nat = 2) (h : forall n, u (n + 2)%nat = 2 * u (n + 1)%nat - u n) : u 6%nat = 7.", "unroll"),
        ("Require Import Arith List.", "Theorem c23 (w : nat -> nat) (h : forall n, w n = 3 * n + 1) : fold_right plus 0 (map w (seq 0 20)) = 590.", "map-ext"),
        ("Require Import Reals.\nOpen Scope R_scope.", "Theorem c24 (x y : R) (h : Rmax x y = 5) (h2 : Rmin x y = 2) : x + y = 7.", "minmax-cases"),
        ("Require Import Reals.\nOpen Scope R_scope.", "Theorem c25 : sqrt 12 + sqrt 27 = 5 * sqrt 3.", "sqrt-factor"),
        ("Require Import Arith.", "Theorem c10 : forall n : nat, n <> 0 -> Nat.divide 3 (9 ^ n).", "mod-push"),
        ("Require Import ZArith.\nOpen Scope Z_scope.", "Theorem c9 (a b : Z) (h0 : a mod 11 = 3) (h1 : b mod 11 = 7) : (a ^ 3 * b ^ 2 - 4 * a) mod 11 = 2.", "mod-push"),
    ],
)
def test_number_theory_families_prove_fresh_statements(header, stmt, tag):
    res = prove_goal(factory, header, stmt, "rocq", SearchBudget(seconds=20))
    assert res.proved, res.reason
    assert tag in res.tags
