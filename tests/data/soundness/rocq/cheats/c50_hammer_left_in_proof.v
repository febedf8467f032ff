(* cheat: `hammer` left in the proof (runs ATPs at check time; undefined without the plugin) | problem: nat_add.v | static: rocq.hammer | dynamic: compile *)
Require Import Arith Lia.

From Hammer Require Import Tactics.

(* Commutativity of addition on nat. *)
Theorem nat_add (n m : nat) : n + m = m + n.
Proof.
  hammer.
Qed.
