"""Step-level data from the human proofs of the development libraries, and a k-NN tactic source.

``schema`` (the ``Step`` record, JSONL helpers, dedup), ``replay`` (one ``.v`` file through a
warm ``coqtop``, steps recorded), ``build`` (``prover-data build``: libraries -> train/valid
JSONL, resumable), ``knn`` (nearest-neighbour tactic suggestions over train steps),
``cli`` (``prover-data``). See ``docs/data.md``. Importing this package starts nothing.
"""
