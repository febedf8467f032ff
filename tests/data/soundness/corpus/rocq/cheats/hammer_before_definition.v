(* cheat: the Hammer import placed before a problem definition (its is_true coercion could change it) | problem: rdefs.v | static: candidate.preamble | style: hammer | dynamic: accepted *)
Require Import Arith Lia.

Definition f (n : nat) : nat := n * n + 1.

From Hammer Require Import Tactics.

Definition g (n : nat) : nat := f n + f (S n).

Theorem g_two : g 2 = 15.
Proof.
  reflexivity.
Qed.
