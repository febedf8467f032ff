(* cheat: a Hint and an Open Scope placed between the problem's definitions, where the final-run allowances do not hold | problem: rdefs.v | style: interleaved | static: rocq.banned,rocq.command | dynamic: accepted *)
Require Import Arith Lia.

Open Scope nat_scope.
Create HintDb early.

Definition f (n : nat) : nat := n * n + 1.

Definition g (n : nat) : nat := f n + f (S n).

Theorem g_two : g 2 = 15.
Proof.
  reflexivity.
Qed.
