"""One statement per registered search family, written for it (none taken from a benchmark):
family name -> ``Case``. The family must answer the statement's goal, and on real Rocq one of
its candidates must do its job there (a closer proves the goal; a step runs and changes it).
Used by ``test_registry.py``."""

from __future__ import annotations

from dataclasses import dataclass

N = "Require Import Arith Lia."
Z = "Require Import ZArith Lia.\nOpen Scope Z_scope."
R = "Require Import Reals Lra Psatz.\nOpen Scope R_scope."
C = "Require Import Reals Lra Psatz.\nFrom Coquelicot Require Import Complex.\nOpen Scope C_scope."
LIST = (
    "Require Import List Arith Lia.\nImport ListNotations.\n"
    "Fixpoint sum_l (l : list nat) : nat := match l with [] => 0 | x :: r => x + sum_l r end."
)
TRIB = (
    "Require Import Arith Lia.\n"
    "Fixpoint walk (n : nat) : nat := match n with 0 => 1 | S 0 => 2 | S (S m as k) => walk k + walk m end."
)
TWICE = "Require Import Arith Lia.\nDefinition twice (n : nat) := 2 * n."
DBL = (
    "Require Import List Arith Lia.\nImport ListNotations.\n"
    "Fixpoint dbl (l : list nat) : list nat := match l with [] => [] | x :: r => (2 * x) :: dbl r end."
)
ODD_P = "Require Import Arith Lia.\nInductive odd_p : nat -> Prop := o1 : odd_p 1 | o2 n : odd_p n -> odd_p (n + 2)."
DIR = (
    "Require Import Arith.\nVariant dir := North | East | South | West.\n"
    "Definition turn (d : dir) : dir := match d with North => East | East => South | South => West | West => North end."
)
DROP = (
    "Require Import List Arith Lia.\nImport ListNotations.\n"
    "Fixpoint dropn (n : nat) (l : list nat) : list nat := match n, l with 0, _ => l | _, [] => [] | S k, _ :: r => dropn k r end."
)
LOCAL = (
    "Require Import List Arith Lia.\nImport ListNotations.\n"
    "Fixpoint sum_l (l : list nat) : nat := match l with [] => 0 | x :: r => x + sum_l r end.\n"
    "Lemma sum_l_app : forall l m, sum_l (l ++ m) = sum_l l + sum_l m.\n"
    "Proof. induction l; simpl; intros; [reflexivity | rewrite IHl; lia]. Qed.\n"
    "Lemma sum_l_bound : forall l, (forall x, In x l -> x <= 1) -> sum_l l <= length l.\n"
    "Proof. induction l; simpl; intros H; [lia | specialize (IHl (fun x h => H x (or_intror h))); "
    "specialize (H a (or_introl eq_refl)); lia]. Qed."
)
HALF_UP = "Require Import Arith Lia.\nFixpoint dropt (n : nat) : nat := match n with 0 => 0 | S 0 => 1 | S (S m) => S (dropt m) end."


@dataclass(frozen=True)
class Case:
    header: str
    binders: tuple[tuple[str, str], ...]
    """``(names, type)`` of the statement's binders, in order (``("x y", "R")``)."""
    concl: str
    depth: int = 0
    facts: tuple = ()
    """``goal.Fact`` records the path to the goal would carry."""
    printed: str = ""
    """The goal as Rocq prints it, where that differs from the binders (big numerals)."""

    @property
    def statement(self) -> str:
        bs = " ".join(f"({n} : {t})" for n, t in self.binders)
        return f"Theorem family_case {bs} : {self.concl}." if bs else f"Theorem family_case : {self.concl}."

    @property
    def goal_text(self) -> str:
        """The goal as Rocq prints it (``x, y : R`` lines, the rule, the conclusion)."""
        if self.printed:
            return self.printed
        hyps = "".join(f"  {', '.join(n.split())} : {t}\n" for n, t in self.binders)
        return f"{hyps}  ============================\n  {self.concl}"


def _case(header: str, binders: str, concl: str, **kw) -> Case:
    """``binders``: ``"x y : R; h : x < y"`` (``;``-separated groups)."""
    groups = []
    for part in filter(None, (p.strip() for p in binders.split(";"))):
        names, _, typ = part.partition(" : ")
        groups.append((names.strip(), typ.strip()))
    return Case(header, tuple(groups), concl, **kw)


def _ih():
    from prover.search.goal import InductionHypotheses

    return (InductionHypotheses(names=("IHn",)),)


def _quotients():
    from prover.search.goal import Quotients

    return (Quotients(names=("p", "q")),)


CASES: dict[str, Case] = {
    # closers
    "induction-struct": _case(LIST, "l : list nat", "sum_l (l ++ [0]) = sum_l l"),
    "induction-fix2": _case(TRIB, "n : nat", "0 < walk n"),
    "induction-scaled": _case(HALF_UP, "n : nat", "dropt (2 * n + 1) = n + 1"),
    "induction-app-lemma": _case(DBL, "l : list nat", "dbl (rev l) = rev (dbl l)"),
    "induction-hyp": _case(LIST, "l : list nat; h : forall x, In x l -> x <= 3", "sum_l l <= 3 * length l"),
    "induction-pred": _case(ODD_P, "n : nat; h : odd_p n", "exists k, n = 2 * k + 1"),
    "induction-other": _case(DIR, "d : dir", "turn (turn (turn (turn d))) = d"),
    "induction-pair": _case(DROP, "n : nat; l : list nat", "length (dropn n l) = length l - n"),
    "parity-spec": _case(N, "k : nat", "Nat.odd (k + k + 1) = true"),
    "library-rewrite": _case(LIST, "l m : list nat", "length (m ++ rev l) = length l + length m"),
    "refl": _case(N, "n : nat", "0 + n = n"),
    "apply-local": _case(LOCAL, "l : list nat; h : forall x, In x l -> x <= 1", "sum_l l <= length l"),
    "lia": _case(N, "n : nat; h : n < 7", "n <= 6"),
    "lra": _case(R, "x y : R; h : x < y", "x < (x + y) / 2"),
    "field": _case(R, "x : R", "x / 4 + x / 4 = x / 2"),
    "ring": _case(N, "a b : nat", "(a + b) * (a + b) = a * a + 2 * a * b + b * b", depth=1),
    "nia": _case(N, "x y : nat; h : x * y = 0; hx : 0 < x", "y = 0"),
    "nra": _case(R, "x : R; h : 0 <= x", "0 <= x * x + x"),
    "tauto": _case(N, "P Q : Prop; h : P /\\ Q", "Q \\/ P"),
    "congruence": _case(N, "f : nat -> nat; a b : nat; h : a = b", "f a = f b"),
    "vm_compute": _case(N, "", "Nat.gcd 35 21 = 7"),
    "psatz": _case(R, "a b : R; ha : 0 < a; hb : 0 < b", "0 < a * b + a"),
    "vertex-nra": _case(R, "x : R", "3 * x ^ 2 + 6 * x + 4 > 0"),
    "nra-hint": _case(R, "a b : R", "a * b <= (a ^ 2 + b ^ 2) / 2"),
    "fsimp-nra": _case(R, "x : R; h : 0 <= x", "x / 2 <= x"),
    "mod-push": _case(N, "m : nat; h : m mod 5 = 3", "(m * m + 1) mod 5 = 0"),
    "nat-mod": _case(N, "n : nat; h : n mod 6 = 4", "n mod 3 = 1"),
    "z-mod": _case(Z, "z : Z; h : z mod 8 = 5", "z mod 4 = 1"),
    "cast-back": _case(R, "n : nat; h : INR n + 3 = 40", "n = 37%nat"),
    "fseq": _case(R, "a b : R; hb : b <> 0; h : a = 3 * b", "a / b = 3"),
    "sqrt-nra": _case(R, "x : R; h : 0 <= x", "sqrt x * sqrt x + 1 > x"),
    "cancel-diseq": _case(R, "x y : R; h : x <> y; e : x * x - y * y = 3 * (x - y)", "x + y = 3"),
    "trig-nra": _case(R, "t : R", "sin t * sin t <= 1"),
    "complex": _case(C, "y z : C", "y * z + y = y * (z + RtoC 1)"),
    "psatz3": _case(R, "x : R; h : 0 <= x", "0 <= x ^ 3 + x"),
    "nat-compute": _case(N, "", "(3 ^ 20 + 1) mod 7 = 3"),
    "z-compute": _case(Z, "", "(5 ^ 30 + 2) mod 9 = 3"),
    "mod-cases": _case(Z, "z : Z", "(z * z + z) mod 2 = 0"),
    "interval-split": _case(Z, "x : Z; h1 : 2 <= x; h2 : x <= 5", "x * x <> 10"),
    "least-split": _case(N, "n : nat; h : n * n > 30", "6 <= n"),
    "bound-split": _case(N, "x y : nat; h : x * y + x = 14; hy : 6 <= y", "x <= 2"),
    "factor-split": _case(N, "a b : nat; h : a * b = 391; ha : 1 < a; hb : 1 < b", "a + b = 40"),
    "pair-split": _case(N, "a b : nat; ha : a < 4; hb : b < 5; h : a * b = 6", "a + b = 5"),
    "roots": _case(R, "x : R; h : x ^ 2 - 7 * x + 12 = 0", "x = 3 \\/ x = 4"),
    "clear-denominators": _case(R, "a b : R; ha : 0 < a; hb : 0 < b", "(a + b) * (1 / a + 1 / b) >= 4"),
    "sqrt-square": _case(R, "t : R", "t < sqrt (t ^ 2 + 9)"),
    # steps
    "intros": _case(N, "", "forall n : nat, n + 0 = n"),
    "intro": _case(N, "n : nat", "S n <> 0"),
    "split": _case(N, "n : nat", "n + 0 = n /\\ 0 + n = n"),
    "disjunct": _case(N, "n : nat", "n = n \\/ n = 0"),
    "destruct-and": _case(N, "a b : nat; h : a < 5 /\\ b = a + 1", "b < 7"),
    "destruct-or": _case(N, "a : nat; h : a = 1 \\/ a = 2", "a < 3"),
    "subst": _case(N, "a b : nat; h : a = b + 1", "a > b"),
    "rewrite-def": _case(R, "f : R -> R; hf : forall x : R, f x = 3 * x - 1", "f 2 = 5"),
    "unfold-def": _case(TWICE, "n : nat", "twice n = n + n"),
    "simpl": _case(N, "n : nat", "2 + n = S (S n)"),
    "field_simplify": _case(R, "x : R; h : x <> 0", "x * x / x = x"),
    "field_simplify-h": _case(R, "x : R; h : x / 3 = 2", "x = 6"),
    "unfold-rsqr": _case(R, "x : R", "Rsqr (x + 1) >= 0"),
    "inr-pos": _case(R, "n : nat; h : (0 < n)%nat", "INR n + 1 > 1"),
    "cast": _case(R, "n : nat", "INR (n + 1) = INR n + 1"),
    "sqrt-lem": _case(R, "x : R; h : x = 5", "sqrt (x * x) = 5"),
    "square-eq": _case(R, "x : R; h0 : 0 <= x; h : x * x = 12", "x = 2 * sqrt 3"),
    "f_equal": _case(R, "a b : R; h : a = b + 1", "sqrt (a - 1) = sqrt b"),
    "sqrt-mult": _case(R, "a : R; h : 0 <= a", "sqrt a * sqrt 4 = sqrt (4 * a)"),
    "ln-expand": _case(R, "a b : R; ha : 0 < a; hb : 0 < b", "ln (a * b) = ln a + ln b"),
    "exp-log": _case(R, "x : R; h : exp (2 * x) = exp 6", "x = 3"),
    "ln-factor": _case(R, "", "ln 243 = 5 * ln 3"),
    "ln-pos": _case(R, "x : R; h : x * ln 5 = ln 5", "x = 1"),
    "trig-values": _case(R, "", "sin (PI / 2) + cos 0 = 2"),
    "trig-expand": _case(R, "a : R", "sin (2 * a) = 2 * sin a * cos a"),
    "up-eval": _case(R, "", "IZR (up (7 / 2)) = 4"),
    "unfold-int-part": _case(R, "", "IZR (Int_part (5 / 2)) = 2"),
    "unroll": _case(R, "u : nat -> R; h0 : u 0%nat = 1; h : forall n : nat, u (S n) = 2 * u n", "u 4%nat = 16"),
    "rpower-root": _case(R, "", "Rpower 343 (2 / 3) = 49"),
    "arith-seq": _case(R, "u : nat -> R; h : forall n : nat, u (S n) = u n + 4; h0 : u 0%nat = 1", "u 150%nat = 601"),
    "sqrt-square-hyp": _case(R, "x : R; h : sqrt (x + 1) = 3", "x = 8"),
    "sqrt-factor": _case(R, "", "sqrt 63 = 3 * sqrt 7"),
    "sqrt-eval": _case(R, "", "sqrt 49 + 1 = 8"),
    "minmax-cases": _case(R, "a b : R", "Rmax a b >= a"),
    "rabs-cases": _case(R, "x : R; h : 2 < x", "Rabs (x - 1) = x - 1"),
    "instantiate": _case(R, "f : R -> R; h : forall x : R, f x + 2 * f (- x) = x", "f 1 = -1"),
    "rpower-eval": _case(R, "", "Rpower 3 2 = 9"),
    "shift-eval": _case(R, "f : R -> R; h : forall x : R, f (x + 2) = 3 * x", "f 5 = 9"),
    "unfold-divide": _case(N, "n : nat", "Nat.divide 4 (8 * n)"),
    "forall-and": _case(R, "f : R -> R; h : forall x : R, f x > 0 /\\ f x < 1", "f 2 < 1"),
    "rewrite-value": _case(N, "f : nat -> nat; h : f 3 = 7", "f 3 + 1 = 8"),
    "rewrite-local": _case(LOCAL, "l m : list nat", "sum_l (l ++ m) = sum_l m + sum_l l"),
    "inverse": _case(R, "f g : R -> R; hf : forall x : R, f x = 2 * x + 1; h : forall x : R, g (f x) = x", "g 9 = 4"),
    "gcd-linear": _case(N, "n : nat", "Nat.gcd (10 * n + 3) (15 * n + 4) = 1"),
    "gcd-lcm": _case(N, "a b : nat; h0 : Nat.gcd a b = 5; h1 : Nat.lcm a b = 60", "35 <= a + b"),
    "witness": _case(N, "", "exists k : nat, 4 * k + 1 = 29"),
    "pi-bounds": _case(R, "", "PI / 2 < 2"),
    "big-nat": _case(
        N,
        "n : nat; h : n + 6000 = 6003",
        "n = 3",
        printed="  n : nat\n  h : n + Init.Nat.of_num_uint (Number.UIntDecimal (Decimal.D6 Decimal.Nil)) = 6003\n  ====\n  n = 3",
    ),
    "sum-index": _case(R, "n : nat", "sum_f_R0 (fun k => 2 * INR k + 1) n = (INR n + 1) ^ 2"),
    "induction": _case(N, "n : nat", "2 * n = n + n"),
    "rewrite-ih": _case(N, "n : nat; IHn : n + 0 = n", "S (n + 0) = S n", depth=1, facts=_ih()),
    "exp-bound": _case(N, "a b : nat; h : 5 ^ a * 2 ^ b = 200", "a <= 3"),
    "pos-destruct": _case(N, "n : nat; h : 0 < n", "2 ^ n >= 2"),
    "case-split": _case(N, "n : nat; h : n < 3", "n * n < 5"),
}

BELOW_ROOT: dict[str, Case] = {
    # the bounded split on the quotients a gcd step introduced, named by its fact
    "bound-split": _case(N, "p q : nat; h : p * q + p = 14; hq : 6 <= q", "p <= 2", depth=2, facts=_quotients()),
}
"""Families that answer some goals only below the root, given a fact."""
