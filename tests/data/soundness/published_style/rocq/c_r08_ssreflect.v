From mathcomp Require Import all_ssreflect.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Lemma addn_sub_aux (n m : nat) : n + m - m = n.
Proof. by rewrite addnK. Qed.

Theorem addnK' (n m : nat) : (n + m) - m = n.
Proof.
  exact: addn_sub_aux.
Qed.
