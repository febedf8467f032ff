Require Import Arith Lia.

Inductive ev : nat -> Prop :=
| ev_0 : ev 0
| ev_SS (n : nat) : ev n -> ev (S (S n)).

Lemma ev_double (n : nat) : ev (n + n).
Proof.
  induction n as [|k IH]; simpl.
  - constructor.
  - rewrite Nat.add_comm. simpl. constructor. exact IH.
Qed.

Theorem four_even : exists k, 4 = k + k.
Proof.
  exists 2. reflexivity.
Qed.
