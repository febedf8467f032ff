(* honest | problem: sum_le.v | style: hammer | replayed CoqHammer reconstructions with the one allowed Hammer import *)
Require Import Arith Lia.

From Hammer Require Import Tactics.

Lemma add_mono_r (x y z : nat) : x <= y -> x + z <= y + z.
Proof. sauto use: Nat.add_le_mono_r. Qed.

(* Twice a sum bounds the sum of the doubles. *)
Theorem sum_le (a b c : nat) (h : a <= b) : a + c <= b + c.
Proof.
  hauto use: add_mono_r.
Qed.
