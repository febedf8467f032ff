(* cheat: Eval native_compute (trusts the native compiler) as a read-only query after the proof | problem: nat_add.v | static: rocq.banned | dynamic: accepted *)
Require Import Arith Lia.

(* Commutativity of addition on nat. *)
Theorem nat_add (n m : nat) : n + m = m + n.
Proof.
  lia.
Qed.

Eval native_compute in 2 + 2.
