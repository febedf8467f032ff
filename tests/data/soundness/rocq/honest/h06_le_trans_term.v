(* honest | problem: le_trans3.v | library lemma, different whitespace *)
Require Import Arith Lia.

Theorem le_trans3   (a b c : nat)
    (h1 : a <= b) (h2 : b <= c) :   a <= c.
Proof.
  exact (Nat.le_trans a b c h1 h2).
Qed.
