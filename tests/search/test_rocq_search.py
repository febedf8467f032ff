"""The default prover on real Rocq (coqtop + coqc): small statements, and the benchmark's file handling.
The whole-search runs of the families' statements are ``slow`` (each family is checked on its
own statement in the default tier by ``test_registry.py``)."""

from pathlib import Path

import pytest

from benchmarks.presets import split_statement
from benchmarks.suites import normalize_rocq
from lean_tools.rocq.session import RocqSession
from prover.search import SearchBudget, prove_goal

DATA = Path(__file__).parent.parent / "data" / "search"


@pytest.fixture(autouse=True)
def _private_cwd(tmp_path, monkeypatch):
    """psatz writes `.csdp.cache` into coqtop's working directory: not into the repository."""
    monkeypatch.chdir(tmp_path)


def factory(header):
    return RocqSession(header, extra_args=("-w", "-all"))


@pytest.mark.rocq
@pytest.mark.parametrize(
    "stmt",
    [
        "Theorem t1 : forall x y : R, x < y -> x + 1 < y + 1 /\\ 0 <= 1.",
        "Theorem t2 (f : R -> R) (h : forall x, f x = 2 * x + 1) : f 3 = 7.",
        "Theorem t3 : forall a b : R, a <> 0 -> b = 2 * a -> b / a + a / b = 5 / 2.",
    ],
)
def test_proves_small_real_statements_and_rechecks(stmt):
    res = prove_goal(factory, "Require Import Reals.\nOpen Scope R_scope.", stmt, "rocq", SearchBudget(seconds=20))
    assert res.proved, res.reason
    assert res.proof.startswith("From Coq Require Import Lia Lra Psatz.")
    assert res.checker_seconds > 0 and res.attempts >= 1


@pytest.mark.rocq
def test_checker_seconds_are_the_sessions_process_tree_cpu():
    # the process tree's CPU (coqtop and the children it waited for: csdp behind psatz, CoqHammer's
    # ATPs) is what the prover's budget charges as checker CPU, not the requests' wall time
    made = []

    class Recorded(RocqSession):
        def start(self):
            super().start()
            self.cpu_at_start = self.process_cpu_seconds
            made.append(self)

    stmt = "Theorem quad (x : R) : x * x - 2 * x + 1 >= 0."
    res = prove_goal(
        lambda h: Recorded(h, extra_args=("-w", "-all")), "Require Import Reals.\nOpen Scope R_scope.", stmt, "rocq",
        SearchBudget(seconds=20, recheck=False),
    )
    assert res.proved, res.reason
    (s,) = made
    assert s.process_cpu_seconds > s.cpu_at_start
    assert res.checker_seconds == pytest.approx(s.process_cpu_seconds - s.cpu_at_start)


@pytest.mark.rocq
def test_local_definition_from_problem_file():
    header, stmt = split_statement(normalize_rocq((DATA / "ends_at_proof.v").read_text()))
    res = prove_goal(factory, header, stmt, "rocq", SearchBudget(seconds=20))
    assert res.proved, res.reason
    assert "unfold g" in res.proof or "simpl" in res.proof


@pytest.mark.rocq
def test_false_statement_is_not_proved_within_budget():
    res = prove_goal(factory, "Require Import Arith.", "Theorem bad : forall n : nat, n + 1 = n.", "rocq", SearchBudget(seconds=3))
    assert not res.proved
    assert res.reason in ("budget", "exhausted")
    assert res.wall_seconds < 30


@pytest.mark.slow
@pytest.mark.rocq
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


NAT = "Require Import Nat Arith."
REAL = "Require Import Reals Lra.\nOpen Scope R_scope."


@pytest.mark.slow
@pytest.mark.rocq
@pytest.mark.parametrize(
    "header, stmt, tags",
    [
        # gcd and lcm: multiples of the gcd, lcm unfolded, then lia/nia or a bounded split of a quotient
        (NAT, "Theorem g1 (b : nat) (h0 : Nat.lcm 150 b = 4350) (h1 : Nat.gcd 150 b = 6) : b = 174.", ("gcd-lcm",)),
        (NAT, "Theorem g2 (m n : nat) (h0 : Nat.gcd m n = 4) (h1 : Nat.lcm m n = 60) : 32 <= m + n.", ("gcd-lcm",)),
        (NAT, "Theorem g3 (m n : nat) (h : 0 < m /\\ 0 < n) (h0 : Nat.gcd m n = 2) (h1 : Nat.lcm m n = 28) : 18 <= m + n.", ("gcd-lcm",)),
        ("Require Import ZArith Lia.\nOpen Scope Z_scope.", "Theorem g4 (m n : Z) (hm : 0 < m) (hn : 0 < n) (h0 : Z.gcd m n = 3) (h1 : Z.lcm m n = 36) : 21 <= m + n.", ("gcd-lcm",)),
        # one Euclid step on linear forms
        (NAT, "Theorem e1 : forall n : nat, gcd (15 * n + 4) (10 * n + 3) = 1.", ("gcd-linear",)),
        (NAT, "Theorem e2 : forall n : nat, n > 0 -> gcd (n + 5) (3 * n + 4) <= 11.", ("gcd-linear",)),
        # a product of two unknowns equal to a numeral: one factor is at most its square root
        (NAT, "Theorem p1 (m n : nat) (h1 : 1 < m) (h2 : 1 < n) (h : m * n = 1147) : m + n = 68.", ("factor-split",)),
        # inverse functions: the point written as an image, then the inverse law
        (REAL, "Theorem i1 (f g : R -> R) (hf : forall x, f x = 2 * x ^ 3 + 3) (h1 : forall x, g (f x) = x) : g 19 = 2.", ("inverse",)),
        (REAL, "Theorem i2 (s t : R -> R) (H : forall x : R, s (t x) = x /\\ t (s x) = x) (h1 : s 2 = 4) (h2 : t 2 = 4) : s (s 2) = 2.", ("rewrite-value", "forall-and", "inverse")),
        # arithmetic sequences in closed form; an index known through its cast
        (REAL, "Theorem a1 (a : nat -> R) (h : forall n, (a (n + 2)%nat - a (n + 1)%nat = a (n + 1)%nat - a n)) (h1 : a 1%nat = 7) (h2 : a 3%nat = 13) : a 1000%nat = 3004.", ("arith-seq",)),
        (REAL, "Theorem a2 (u : nat -> R) (h : forall n, u (S n) = u n + 3) (h1 : u 0%nat = 2) : u 500%nat = 1502.", ("arith-seq",)),
        (REAL, "Theorem a3 (x : R) (n : nat) (a : nat -> R) : (forall m : nat, a (S m) - a m = a (S (S m)) - a (S m)) -> (a 1%nat = x + 1) -> (a 2%nat = 3 * x - 1) -> (a 3%nat = 4 * x) -> (a n = 60) -> n = 15%nat.", ("arith-seq", "cast-back")),
        # a recurrence unrolled up to the largest index stated anywhere, not only in the goal
        (REAL, "Theorem a4 (u : nat -> R) (h : forall n, u (n + 2)%nat = u (n + 1)%nat + u n) (h1 : u 1%nat = 1) (h2 : u 5%nat = 11) : u 3%nat = 4.", ("unroll",)),
        (REAL, "Theorem c1 (n : nat) (h : IZR (Z.of_nat n) * 3 + 1 = 61) : n = 20%nat.", ("cast-back",)),
        # radicals and roots
        (REAL, "Theorem s1 (a b : R) (h0 : 0 < a) (h1 : 0 < b) (h2 : a ^ 2 = 3 * b) (h3 : a ^ 2 = 48 / b) : a = 2 * sqrt 3.", ("square-eq",)),
        (REAL, "Theorem s2 (x y : R) (h : x + y = 10) (h2 : sqrt (x * y) = sqrt 21) : x ^ 2 + y ^ 2 = 58.", ("sqrt-square",)),
        (REAL, "Theorem s3 (x : R) (h : 0 <= x) : sqrt (2 * x) * sqrt (8 * x) = 4 * x.", ("sqrt-mult",)),
        (REAL, "Theorem r1 (a : R) (H : a = 4) : Rpower (2 * Rpower (a ^ 3) (1/2)) (2/4) = 4.", ("rpower-root",)),
        (REAL, "Theorem r2 : Rpower 27 (2/3) = 9.", ("rpower-root",)),
        (REAL, "Theorem l1 : (ln 24 / ln 2) / (ln 2 / ln 48) - (ln 96 / ln 2) / (ln 2 / ln 12) = 2.", ("ln-factor",)),
        # conditional definitions rewritten innermost first; signs of casts for field_simplify
        (REAL, "Theorem f1 (f : R -> R) (h : forall x, x <> -3 -> f x = 2 / (x + 3)) : f (f 1) = 4 / 7.", ("rewrite-cond",)),
        (REAL, "Theorem f2 (m a : nat) (h0 : (0 < m)%nat) (h1 : (0 < a)%nat) (h : INR m / INR a = 2 / 3) : (10 * INR m + 20 * INR a) / (INR m + INR a) = 16.", ("inr-pos",)),
        # a sum up to n by induction: last term split off, hypothesis used, casts opened
        (REAL, "Theorem u1 (n : nat) : sum_f_R0 (fun k => 2 * INR k + 3) n = (INR n + 1) * (INR n + 3).", ("sum-induction",)),
        (REAL, "Theorem u2 (n : nat) (h : (1 <= n)%nat) : sum_f_R0 (fun k => INR k + 1) (n - 1) = INR n * (INR n + 1) / 2.", ("sum-shift", "sum-induction")),
        # complex numbers split into real parts (Cminus unfolded before Cplus)
        ("Require Import Reals.\nRequire Import Coquelicot.Coquelicot.\nOpen Scope C_scope.", "Theorem z1 (a b : C) (h1 : a + 2 * b = 7) (h2 : 3 * (a - 1) - b = 4) : a = 3 /\\ b = 2.", ("complex",)),
    ],
)
def test_algebra_and_gcd_families_prove_fresh_statements(header, stmt, tags):
    res = prove_goal(factory, header, stmt, "rocq", SearchBudget(seconds=20))
    assert res.proved, res.reason
    assert set(tags) <= set(res.tags), res.tags
