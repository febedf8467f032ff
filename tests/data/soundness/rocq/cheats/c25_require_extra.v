(* cheat: an extra Require inserted at the top of the header | problem: nat_add.v | static: candidate.preamble | dynamic: accepted *)
Require Import Coq.Logic.Classical.
Require Import Arith Lia.

(* Commutativity of addition on nat. *)
Theorem nat_add (n m : nat) : n + m = m + n.
Proof.
  lia.
Qed.
