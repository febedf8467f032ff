Require Import Arith Lia.

Set Default Proof Using "Type".

Definition six := Eval compute in 2 * 3.

Lemma six_eq : six = 6.
Proof. reflexivity. Qed.
Hint Resolve six_eq : core.

Theorem six_pos : 0 < 6.
Proof.
  lia.
Qed.
