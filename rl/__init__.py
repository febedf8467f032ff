"""RL training of the prover policy on verifier rewards (``prover-train``; see rl/README.md).

One module per concept: ``config`` (TOML -> pydantic, no torch), ``records`` (JSONL records),
``curriculum`` (generated Rocq theorems), ``verifier`` (reward: full soundness verdict),
``env`` (episodes), ``policy`` / ``samplers`` (models, torch/transformers/vLLM sampling),
``algorithms`` (GRPO, DAPO, Dr.GRPO hooks), ``trainer`` (algorithm-blind optimiser step),
``sampling`` (online difficulty filtering), ``loop`` (sync/async orchestration), ``checkpoint``,
``metrics``, ``distributed`` (FSDP, Ray), ``evaluate`` (pass@k), ``plots``, ``cli``.
Importing ``rl`` imports nothing heavy.
"""
