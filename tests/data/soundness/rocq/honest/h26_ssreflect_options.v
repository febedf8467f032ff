(* honest | problem: addnK_mc.v | the MathComp file header options (Set Implicit Arguments, Unset Printing Implicit Defensive) among the helpers *)
From mathcomp Require Import all_ssreflect.

Set Implicit Arguments.
Unset Strict Implicit.
Unset Printing Implicit Defensive.

Lemma addn_sub_aux (n m : nat) : n + m - m = n.
Proof. by rewrite addnK. Qed.

Theorem addnK_mc (n m : nat) : (n + m) - m = n.
Proof.
  exact: addn_sub_aux.
Qed.
