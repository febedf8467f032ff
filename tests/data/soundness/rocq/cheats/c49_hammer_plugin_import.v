(* cheat: the Hammer plugin (ATP-calling `hammer`) imported instead of the Tactics module | problem: nat_add.v | static: rocq.banned | dynamic: none *)
Require Import Arith Lia.

From Hammer Require Import Hammer.

(* Commutativity of addition on nat. *)
Theorem nat_add (n m : nat) : n + m = m + n.
Proof.
  hammer.
Qed.
