Theorem broken (n : nat) : n + true = n.
Proof.
Admitted.
