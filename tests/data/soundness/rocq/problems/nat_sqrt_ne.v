Require Import Arith.
Import Nat.

(* FALSE over nat (Nat.sqrt 3 = Nat.sqrt 2 = 1). *)
Theorem nat_sqrt_ne : sqrt 3 <> sqrt 2.
Proof.
Admitted.
