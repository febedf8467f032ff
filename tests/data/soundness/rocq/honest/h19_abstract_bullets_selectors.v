(* honest | problem: sum_to.v | goal selectors, braces, abstract and a `1-2:` range selector *)
Require Import Arith Lia.

Fixpoint sum_to (n : nat) : nat :=
  match n with
  | O => O
  | S k => n + sum_to k
  end.

Theorem sum_to_formula (n : nat) : 2 * sum_to n = n * (n + 1).
Proof.
  induction n as [| n IH].
  { reflexivity. }
  assert (E : 2 * sum_to n = n * (n + 1)) by (abstract exact IH).
  simpl sum_to.
  1-1: nia.
Qed.
