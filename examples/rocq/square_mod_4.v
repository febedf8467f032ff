Require Import Arith Lia.
(* Written for this repository. *)
Theorem square_mod_4 (n : nat) : (n * n) mod 4 = 0 \/ (n * n) mod 4 = 1.
Proof.
Admitted.
