(* cheat: the Hammer import moved inside the proof, where only tactics may stand | problem: nat_add.v | static: rocq.command | dynamic: accepted *)
Require Import Arith Lia.

(* Commutativity of addition on nat. *)
Theorem nat_add (n m : nat) : n + m = m + n.
Proof.
  From Hammer Require Import Tactics.
  sauto use: Nat.add_comm.
Qed.
