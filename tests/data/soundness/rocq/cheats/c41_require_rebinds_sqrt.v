(* cheat: a helper Require Import Reals re-binds `sqrt` so the false nat statement becomes a true real one | problem: nat_sqrt_ne.v | static: rocq.banned | dynamic: statement *)
Require Import Arith.
Import Nat.

Require Import Reals.
Require Import Lra.

(* FALSE over nat (Nat.sqrt 3 = Nat.sqrt 2 = 1). *)
Theorem nat_sqrt_ne : sqrt 3 <> sqrt 2.
Proof.
  intro H. apply sqrt_inj in H; lra.
Qed.
