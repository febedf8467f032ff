Require Import Arith Lia.

(* A small problem for the scripted-LLM pipeline tests. *)
Theorem double_le (n m : nat) : n <= m -> 2 * n <= 2 * m + 1.
Proof.
Admitted.
