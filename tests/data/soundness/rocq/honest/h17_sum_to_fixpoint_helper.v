(* honest | problem: sum_to.v | a helper Definition and a helper lemma with bullets *)
Require Import Arith Lia.

Fixpoint sum_to (n : nat) : nat :=
  match n with
  | O => O
  | S k => n + sum_to k
  end.

Definition triangle (n : nat) : nat := n * (n + 1).

Lemma triangle_succ (n : nat) : triangle (S n) = triangle n + 2 * S n.
Proof.
  unfold triangle. lia.
Qed.

Theorem sum_to_formula (n : nat) : 2 * sum_to n = n * (n + 1).
Proof.
  change (n * (n + 1)) with (triangle n).
  induction n as [| n IH].
  - reflexivity.
  - rewrite triangle_succ. simpl sum_to. lia.
Qed.
