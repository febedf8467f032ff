(* Holes left by a user: `prove theories/Holes.v` fills them in file order. Written for this repository. *)
From Demo Require Import Defs.
Require Import Arith Lia.

Section Bounds.
  Variable k : nat.
  Hypothesis k_big : 3 <= k.

  Lemma k_pos : 0 < k.
  Proof.
  Admitted.

  (* uses the lemma above once it is filled, and one from Defs.v *)
  Lemma twice_k_ge : 6 <= twice k.
  Proof.
    rewrite twice_double.
  Admitted.
End Bounds.

Module Sums.
  Lemma sum_to_closed : forall n, 2 * sum_to n = n * (n + 1).
  Proof.
  Admitted.
End Sums.

Theorem twice_mono (a b : nat) : a <= b -> twice a <= twice b.
Proof.
Admitted.
