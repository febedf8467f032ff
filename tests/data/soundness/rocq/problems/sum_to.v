Require Import Arith Lia.

Fixpoint sum_to (n : nat) : nat :=
  match n with
  | O => O
  | S k => n + sum_to k
  end.

Theorem sum_to_formula (n : nat) : 2 * sum_to n = n * (n + 1).
Proof.
Admitted.
