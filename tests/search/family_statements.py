"""Statements written for the search families (none taken from a benchmark), grouped by the shape
of their goal: name -> (header, statement). ``S`` is every group together."""


LIST_H = "Require Import List Arith Lia.\nImport ListNotations.\nFixpoint total (l : list nat) : nat := match l with [] => 0 | x :: r => x + total r end."
TREE_H = "Require Import Arith Lia.\nInductive bt : Type := Lf : bt | Nd : bt -> nat -> bt -> bt.\nFixpoint nodes (t : bt) : nat := match t with Lf => 0 | Nd a _ b => nodes a + 1 + nodes b end.\nFixpoint flip (t : bt) : bt := match t with Lf => Lf | Nd a x b => Nd (flip b) x (flip a) end."
FIB_H = "Require Import Arith Lia.\nFixpoint lucas (n : nat) : nat := match n with 0 => 2 | S 0 => 1 | S (S m as k) => lucas k + lucas m end."
RSUM_H = "Require Import Reals Lra.\nOpen Scope R_scope.\nFixpoint odds (n : nat) : R := match n with O => 0 | S k => odds k + (2 * INR k + 1) end."
R_H = "Require Import Reals Lra Psatz.\nOpen Scope R_scope."
NAT_H = "Require Import Arith Lia."
EV_H = "Require Import Arith Lia.\nInductive ev : nat -> Prop := ev0 : ev 0 | evSS n : ev n -> ev (S (S n))."

STRUCTURAL_INDUCTION = {
 "map_succ_total": (LIST_H, "Theorem map_succ_total (l : list nat) : total (map (fun x => x + 1) l) = total l + length l."),
 "total_app": (LIST_H, "Theorem total_app (l m : list nat) : total (l ++ m) = total m + total l."),
 "flip_nodes": (TREE_H, "Theorem flip_nodes (t : bt) : nodes (flip t) = nodes t."),
 "flip_flip": (TREE_H, "Theorem flip_flip (t : bt) : flip (flip t) = t."),
 "lucas_pos": (FIB_H, "Theorem lucas_pos (n : nat) : 1 <= lucas n."),
 "odds_square": (RSUM_H, "Theorem odds_square (n : nat) : odds n = INR n * INR n."),
 "opt_map": ("Require Import Arith.", "Theorem opt_map_id (o : option nat) : option_map (fun x => x) o = o."),
 "dup_len": (
  (
   "Require Import List.\nImport ListNotations.\n"
   "Fixpoint dup {A : Type} (l : list A) : list A := match l with [] => [] | x :: r => x :: x :: dup r end."
  ),
  "Theorem dup_length (A : Type) (l : list A) : length (dup l) = 2 * length l.",
 ),
 "geo3": (
  "Require Import Reals Lra.\nOpen Scope R_scope.\nFixpoint geo3 (n : nat) : R := match n with O => 0 | S k => geo3 k + 3 ^ k end.",
  "Theorem geo3_closed (n : nat) : 2 * geo3 n = 3 ^ n - 1.",
 ),
 "keep_len": (
  (
   "Require Import List Arith Lia.\nImport ListNotations.\n"
   "Fixpoint keep (l : list nat) : list nat := match l with [] => [] | x :: r => if Nat.even x then x :: keep r else keep r end."
  ),
  "Theorem keep_shorter (l : list nat) : length (keep l) <= length l.",
 ),
 "flat_len": (
  (
   "Require Import List Arith Lia.\nImport ListNotations.\n"
   "Fixpoint flat (l : list (list nat)) : list nat := match l with [] => [] | x :: r => x ++ flat r end."
  ),
  "Theorem flat_app_len (l m : list (list nat)) : length (flat (l ++ m)) = length (flat l) + length (flat m).",
 ),
 "filter_split": (
  "Require Import List Arith Lia.\nImport ListNotations.",
  "Theorem filter_split_len (p : nat -> bool) (l : list nat) : length (filter p l) + length (filter (fun x => negb (p x)) l) = length l.",
 ),
 "sqsum_rev": (
  (
   "Require Import List Arith Lia.\nImport ListNotations.\n"
   "Fixpoint sqsum (l : list nat) : nat := match l with [] => 0 | x :: r => x * x + sqsum r end."
  ),
  "Theorem sqsum_rev (l : list nat) : sqsum (rev l) = sqsum l.",
 ),
 "nonempty_cons": ("Require Import List.", "Theorem nonempty_cons (l : list nat) : l <> nil -> exists x r, l = x :: r."),
 "th_closed": (
  "Require Import Reals Lra.\nOpen Scope R_scope.\nFixpoint th (n : nat) : R := match n with O => 0 | S k => th k + 2 / 3 ^ (S k) end.",
  "Theorem th_closed (n : nat) : th n = 1 - / 3 ^ n.",
 ),
 "take_len": (
  (
   "Require Import List Arith Lia.\nImport ListNotations.\n"
   "Fixpoint take (n : nat) (l : list nat) : list nat := match n, l with 0, _ => [] | _, [] => [] | S k, x :: r => x :: take k r end."
  ),
  "Theorem take_len (n : nat) (l : list nat) (h : n <= length l) : length (take n l) = n.",
 ),
}
"""Equations and bounds about a recursive function of the header (lists, trees, nat and
real-valued fixpoints), proved by induction on its argument, case analysis, or a recursion down two
arguments at once."""

INDUCTION_ON_PREMISES = {
 "pos_total": (LIST_H, "Theorem pos_total (l : list nat) (h : forall x, In x l -> 1 <= x) : length l <= total l."),
 "zero_mem": (LIST_H, "Theorem zero_mem (l : list nat) (k : nat) (h : total l = 0) (hk : In k l) : k = 0."),
 "fold_pos": (
  "Require Import List Arith Lia.\nImport ListNotations.",
  "Theorem fold_pos : forall l : list nat, (forall x, In x l -> x > 0) -> fold_right plus 0 l >= length l.",
 ),
 "forall_total": (LIST_H, "Theorem forall_total (l : list nat) (h : Forall (fun x => x < 5) l) : total l <= 4 * length l."),
 "mem_total": (LIST_H, "Theorem mem_total (l : list nat) (x : nat) (h : In x l) : x <= total l."),
 "tree_bound": (
  (
   TREE_H + "\nFixpoint tsum (t : bt) : nat := match t with Lf => 0 | Nd a x b => tsum a + x + tsum b end.\n"
   "Fixpoint tin (v : nat) (t : bt) : Prop := match t with Lf => False | Nd a x b => tin v a \\/ v = x \\/ tin v b end."
  ),
  "Theorem tree_bound (t : bt) (h : forall x, tin x t -> x <= 2) : tsum t <= 2 * nodes t.",
 ),
 "ev_half": (EV_H, "Theorem ev_half (n : nat) (h : ev n) : exists k, n = 2 * k."),
 "ev_plus": (EV_H, "Theorem ev_plus (n m : nat) (hn : ev n) (hm : ev m) : ev (n + m)."),
 "tri_mono": (
  "Require Import Arith Lia.\nFixpoint tri (n : nat) : nat := match n with 0 => 0 | S k => S k + tri k end.",
  "Theorem tri_mono (a b : nat) (h : a <= b) : tri a <= tri b.",
 ),
 "reach_le": (
  "Require Import Arith Lia.\nInductive reach : nat -> nat -> Prop := r_here n : reach n n | r_next n m : reach n m -> reach n (S m).",
  "Theorem reach_le (a b : nat) (h : reach a b) : a <= b.",
 ),
}
"""Induction whose hypotheses speak of the variable (membership, ``Forall``, sums), or over a
derivation of an inductive predicate of the header or ``<=``."""

INDUCTION_ON_LIBRARY_TYPES = {
 "flipc": (
  "Definition flipc (c : comparison) : comparison := match c with Lt => Gt | Gt => Lt | Eq => Eq end.",
  "Theorem flipc_twice (c : comparison) : flipc (flipc c) = c.",
 ),
 "digits": (
  (
   "Require Import PArith Arith Lia.\n"
   "Fixpoint digits (p : positive) : nat := match p with xH => 1 | xO q => S (digits q) | xI q => S (digits q) end."
  ),
  "Theorem digits_pos (p : positive) : 1 <= digits p.",
 ),
 "str_len": (
  "Require Import String Arith Lia.\nOpen Scope string_scope.",
  "Theorem str_len (s t : string) : String.length (s ++ t) = String.length s + String.length t.",
 ),
 "compopp_eq": ("Require Import Arith.", "Theorem compopp_eq (c : comparison) (h : CompOpp c = Eq) : c = Eq."),
}
"""Case analysis or induction over types of loaded libraries (``comparison``, ``positive``,
``string``)."""

LIBRARY_LEMMA = {
 "gcd_comm_mine": (NAT_H, "Theorem gcd_swap (a b : nat) : Nat.gcd a b = Nat.gcd b a."),
 "lcm_mine": (NAT_H, "Theorem lcm_swap (a b : nat) : Nat.lcm b a = Nat.lcm a b."),
 "rev_len": ("Require Import List Arith.\nImport ListNotations.", "Theorem rev_app_len (l m : list nat) : length (rev (m ++ l)) = length l + length m."),
 "firstn_len": ("Require Import List Arith.\nImport ListNotations.", "Theorem firstn_all_len (l : list nat) : firstn (length l) l = l."),
 "nth_rev": ("Require Import List Arith.\nImport ListNotations.", "Theorem concat_map_len (l m : list nat) : length (map S (l ++ m)) = length m + length l."),
 "zgcd": ("Require Import ZArith.\nOpen Scope Z_scope.", "Theorem zgcd_sym (a b : Z) : Z.gcd b a = Z.gcd a b."),
 "in_app": ("Require Import List.\nImport ListNotations.", "Theorem in_right (x : nat) (l m : list nat) : In x m -> In x (l ++ m)."),
 "rabs_tri": ("Require Import Reals.\nOpen Scope R_scope.", "Theorem abs_sum_le (u v : R) : Rabs (u + v) <= Rabs u + Rabs v."),
 "forall_app": (
  "Require Import List.\nImport ListNotations.",
  "Theorem forall_right (P : nat -> Prop) (l m : list nat) (h : Forall P (l ++ m)) : Forall P m.",
 ),
 "leb_self": ("Require Import Arith.", "Theorem leb_self (n : nat) : (n <=? n) = true."),
}
"""Instances of a standard-library lemma, some found only by ``Search`` at run time
(``library.searched_candidates``)."""

PARITY = {
 "odd_2n1": (NAT_H, "Theorem odd_double_succ (k : nat) : Nat.odd (2 * k + 1) = true."),
 "even_2n": (NAT_H, "Theorem even_double (k : nat) : Nat.even (2 * k) = true."),
 "odd_sum": ("Require Import Arith.", "Theorem odd_sum_even (a b : nat) (ha : Nat.odd a = true) (hb : Nat.odd b = true) : Nat.even (a + b) = true."),
 "z_odd_sum": (
  "Require Import ZArith.\nOpen Scope Z_scope.",
  "Theorem z_odd_sum (x y : Z) (hx : Z.odd x = true) (hy : Z.odd y = true) : Z.even (x + y) = true.",
 ),
}
"""``Nat.odd`` / ``Nat.even`` / ``Z.odd`` / ``Z.even`` of sums and multiples."""

REMAINDER = {
 "mod7": (NAT_H, "Theorem sq_mod_seven (m : nat) (h : m mod 7 = 3) : (m * m + 5) mod 7 = 0."),
 "modZ": ("Require Import ZArith Lia.\nOpen Scope Z_scope.", "Theorem cube_mod_four (z : Z) (h : z mod 4 = 3) : (z * z * z + 1) mod 4 = 0."),
 "mod_coarser": ("Require Import Arith Lia.", "Theorem mod_six_three (m : nat) (h : m mod 6 = 5) : m mod 3 = 2."),
 "mod_div_z": ("Require Import ZArith Lia.\nOpen Scope Z_scope.", "Theorem z_mod_ten_two (z : Z) (h : z mod 10 = 7) : (z + 3) mod 5 = 0."),
 "odd_sq_mod8": ("Require Import Arith Lia.", "Theorem sq_mod_eight (n : nat) (h : n mod 4 = 3) : (n * n) mod 8 = 1."),
}
"""A remainder of a polynomial, known from a remainder in a hypothesis (nat and Z)."""

REAL_INEQUALITY = {
 "recip2": (R_H, "Theorem recip_sum (p q : R) (hp : 0 < p) (hq : 0 < q) : p / q + q / p >= 2."),
 "sqrt_lt": (R_H, "Theorem below_root (y : R) : y < sqrt (y ^ 2 + 4)."),
 "sqrt_le": (R_H, "Theorem root_le (a : R) (h : 0 <= a) : sqrt a <= (a + 1) / 2."),
 "recip_bound": (R_H, "Theorem recip_le (t : R) (h : 1 <= t) : 1 / t <= 1."),
 "frac_quarter": (
  "Require Import Reals Lra Psatz.\nOpen Scope R_scope.",
  "Theorem frac_quarter (t : R) (h : 0 < t) : t / (t * t + 4) <= 1 / 4.",
 ),
 "three_fracs": (
  "Require Import Reals Lra Psatz.\nOpen Scope R_scope.",
  "Theorem three_fracs (x y z : R) (hx : 0 < x) (hy : 0 < y) (hz : 0 < z) : (x + y) / z + (y + z) / x + (z + x) / y >= 6.",
 ),
 "sqrt_quarter": (R_H, "Theorem root_le_quarter (b : R) (h : 0 <= b) : sqrt b <= (b + 4) / 4."),
 "z_sym_sq": ("Require Import ZArith Lia.\nOpen Scope Z_scope.", "Theorem z_sym_sq (x y z : Z) : x * y + y * z + z * x <= x * x + y * y + z * z."),
}
"""Inequalities over R (and one over Z) with denominators, square roots or a square-sum hint."""

S = {**STRUCTURAL_INDUCTION, **INDUCTION_ON_PREMISES, **INDUCTION_ON_LIBRARY_TYPES, **LIBRARY_LEMMA, **PARITY, **REMAINDER, **REAL_INEQUALITY}


if __name__ == "__main__":  # write one problem file per statement: python tests/search/family_statements.py DIR
    import sys
    from pathlib import Path

    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for _name, (_header, _stmt) in S.items():
        (out / f"{_name}.v").write_text(f"{_header}\n\n{_stmt}\nProof.\nAdmitted.\n", encoding="utf-8")
