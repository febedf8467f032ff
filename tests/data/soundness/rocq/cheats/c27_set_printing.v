(* cheat: Unset Printing Notations and Opaque games among the helpers | problem: nat_add.v | static: rocq.command | dynamic: accepted *)
Require Import Arith Lia.

Unset Printing Notations.
Opaque Nat.add.

(* Commutativity of addition on nat. *)
Theorem nat_add (n m : nat) : n + m = m + n.
Proof.
  lia.
Qed.
