Require Import Arith.


Theorem two_plus_two : 2 + 2 = 4.
Proof.
  reflexivity.
Qed.

Check two_plus_two.
About two_plus_two.
Print two_plus_two.
Compute 2 + 2.
Eval cbv in 2 + 2.
Search (_ + 0 = _).
Locate "+".
