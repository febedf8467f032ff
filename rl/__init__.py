"""RL training of the prover policy on verifier rewards (``prover-train``; see rl/README.md).

One module per concept: ``config`` (TOML -> pydantic, no torch), ``records`` (JSONL records),
``curriculum`` (generated Rocq theorems), ``verifier`` (reward: full soundness verdict),
``env`` (tactic-loop episodes), ``agent_env`` (episodes through ``prover.agent.LemmaAgent``),
``policy`` / ``samplers`` (models, torch/transformers/vLLM sampling), ``algorithms``
(GRPO, DAPO, Dr.GRPO hooks), ``trainer`` (algorithm-blind optimiser step), ``sampling``
(online difficulty filtering), ``loop`` (sync/async orchestration), ``checkpoint``, ``metrics``,
``distributed`` (FSDP, Ray), ``evaluate`` (pass@k), ``bench`` (benchmark attempt function),
``plots``, ``cli``.
Importing ``rl`` imports nothing heavy.
"""
