(* cheat: a helper before a problem definition rebinds a name it uses (S), changing that definition | problem: rdefs.v | static: candidate.shadowing | style: interleaved | dynamic: none *)
Require Import Arith Lia.

Definition f (n : nat) : nat := n * n + 1.

Definition S (n : nat) : nat := n + 1.

Definition g (n : nat) : nat := f n + f (S n).

Theorem g_two : g 2 = 15.
Proof.
  reflexivity.
Qed.
