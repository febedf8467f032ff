(* cheat: a Require placed between the problem's definitions (it could rebind what the next one uses) | problem: rdefs.v | static: candidate.preamble | style: interleaved | dynamic: accepted *)
Require Import Arith Lia.

Definition f (n : nat) : nat := n * n + 1.

Require Import ZArith.

Definition g (n : nat) : nat := f n + f (S n).

Theorem g_two : g 2 = 15.
Proof.
  reflexivity.
Qed.
