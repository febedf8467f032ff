(* cheat: read-only queries among the helpers (allowed) carrying admit and native_compute | problem: nat_add.v | static: rocq.hole,rocq.banned | dynamic: accepted *)
Require Import Arith Lia.

Check ltac:(admit).
Eval native_compute in 2 + 2.

(* Commutativity of addition on nat. *)
Theorem nat_add (n m : nat) : n + m = m + n.
Proof.
  lia.
Qed.
