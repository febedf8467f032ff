(* honest | problem: le_trans3.v | lia with hypotheses *)
Require Import Arith Lia.

Theorem le_trans3 (a b c : nat) (h1 : a <= b) (h2 : b <= c) : a <= c.
Proof. lia. Qed.
