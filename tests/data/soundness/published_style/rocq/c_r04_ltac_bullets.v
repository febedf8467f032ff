Require Import Arith Lia.

Ltac solve_nat := repeat (intros || split); simpl in *; try lia.

Lemma two_facts (n : nat) : n + 0 = n /\ 0 + n = n.
Proof.
  split.
  - lia.
  - reflexivity.
Qed.

Theorem sum_both (n m : nat) : (n + 0) + (0 + m) = n + m.
Proof.
  destruct (two_facts n) as [H1 _].
  destruct (two_facts m) as [_ H2].
  rewrite H1, H2.
  { reflexivity. }
Qed.
