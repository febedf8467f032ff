(* cheat: a default-allowed Require (List) placed between the problem's definitions, before the reference statement is elaborated | problem: rdefs.v | style: require | static: candidate.preamble | dynamic: accepted *)
Require Import Arith Lia.

Require Import List.
Import ListNotations.

Definition f (n : nat) : nat := n * n + 1.

Definition g (n : nat) : nat := f n + f (S n).

Theorem g_two : g 2 = 15.
Proof.
  reflexivity.
Qed.
