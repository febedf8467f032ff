(* cheat: a Hint into typeclass_instances (an Instance by another name, which could change how a statement elaborates) | problem: nat_add.v | static: rocq.banned | dynamic: accepted *)
Require Import Arith Lia.

Global Hint Resolve Nat.add_comm : typeclass_instances.

(* Commutativity of addition on nat. *)
Theorem nat_add (n m : nat) : n + m = m + n.
Proof.
  lia.
Qed.
