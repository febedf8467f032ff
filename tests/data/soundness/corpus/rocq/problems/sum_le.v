Require Import Arith Lia.

(* Twice a sum bounds the sum of the doubles. *)
Theorem sum_le (a b c : nat) (h : a <= b) : a + c <= b + c.
Proof.
Admitted.
