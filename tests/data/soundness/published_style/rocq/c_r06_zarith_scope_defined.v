Require Import ZArith Lia.

Open Scope Z_scope.

Definition double (z : Z) : Z := 2 * z.

Lemma double_spec (z : Z) : double z = z + z.
Proof. unfold double. lia. Defined.

Theorem double_even (z : Z) : ((2 * z) mod 2 = 0)%Z.
Proof.
  rewrite Z.mul_comm. apply Z_mod_mult.
Qed.
