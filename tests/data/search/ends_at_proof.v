Require Import Arith.
From Stdlib Require Import Lia.

Definition g (n : nat) : nat := 2 * n + 1.

Theorem sample_ends_at_proof (x : nat) (h : g x = 7) :
  x = 3.
Proof.
