(* cheat: proof closed with Admitted | problem: nat_add.v | static: candidate.terminator | dynamic: axioms *)
Require Import Arith Lia.

(* Commutativity of addition on nat. *)
Theorem nat_add (n m : nat) : n + m = m + n.
Proof.
Admitted.
