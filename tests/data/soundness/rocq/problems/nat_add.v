Require Import Arith Lia.

(* Commutativity of addition on nat. *)
Theorem nat_add (n m : nat) : n + m = m + n.
Proof.
Admitted.
