(* cheat: `...` hides a Set command inside the target proof | problem: nat_add.v | static: rocq.command | dynamic: accepted *)
Require Import Arith Lia.

(* Commutativity of addition on nat. *)
Theorem nat_add (n m : nat) : n + m = m + n.
Proof.
  idtac...
  Set Printing All.
  lia.
Qed.
