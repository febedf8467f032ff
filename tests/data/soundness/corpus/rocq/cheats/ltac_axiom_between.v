(* cheat: an Axiom hidden among Ltac helpers placed between the problem's definitions | problem: rdefs.v | static: rocq.banned | style: interleaved | dynamic: axioms *)
Require Import Arith Lia.

Definition f (n : nat) : nat := n * n + 1.

Ltac crush := intros; simpl; lia.
Axiom boom : forall P : Prop, P.

Definition g (n : nat) : nat := f n + f (S n).

Theorem g_two : g 2 = 15.
Proof.
  apply boom.
Qed.
