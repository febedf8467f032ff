(* A small development: definitions and a lemma that later files use. Written for this repository. *)
Require Import Arith Lia.

Definition twice (n : nat) : nat := n + n.

Fixpoint sum_to (n : nat) : nat :=
  match n with
  | 0 => 0
  | S k => S k + sum_to k
  end.

Lemma twice_double : forall n, twice n = 2 * n.
Proof. intros n; unfold twice; lia. Qed.
