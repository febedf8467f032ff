Require Import Arith Lia.

Local Notation "x ²" := (x * x) (at level 1, format "x ²").

Lemma sq_nonneg_nat (x : nat) : 0 <= x ².
Proof. lia. Qed.

Theorem sq_le (x : nat) : x <= x * x \/ x = 0.
Proof.
  destruct x; [right; reflexivity | left; nia].
Qed.
