Require Import Arith Lia.

(* Written for this repository. *)
Theorem double_le (n m : nat) : n <= m -> 2 * n <= 2 * m + 1.
Proof.
Admitted.
