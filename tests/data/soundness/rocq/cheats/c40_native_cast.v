(* cheat: native_cast_no_check makes the kernel trust the native compiler | problem: nat_add.v | static: rocq.banned | dynamic: accepted *)
Require Import Arith Lia.

(* Commutativity of addition on nat. *)
Theorem nat_add (n m : nat) : n + m = m + n.
Proof.
  intros; native_cast_no_check (Nat.add_comm n m).
Qed.
