"""RL training of the prover policy on verifier rewards (``prover-train``; see rl/README.md).

One module per concept: ``config`` (TOML -> pydantic, no torch), ``records`` (JSONL records),
``curriculum`` (generated Rocq theorems), ``verifier`` (reward: full soundness verdict),
``tactic_env`` (tactic-loop episodes), ``agent_env`` (episodes through ``prover.agent.LemmaAgent``),
``policy`` / ``action_samplers`` (tactic-token models and their samplers), ``lm`` / ``text_samplers`` /
``lm_agent`` / ``lm_job`` (a real pretrained LM writing free text in the agent loop),
``vllm_engine`` (vLLM V1 engine with weight push), ``algorithms``
(GRPO, DAPO, Dr.GRPO hooks), ``trainer`` (algorithm-blind optimiser step), ``problem_sampler``
(online difficulty filtering), ``loop`` (sync/async orchestration), ``checkpoint``, ``metrics``,
``distributed`` (torchrun/DDP, Ray verdict tasks), ``h200`` (the GPU demo's scripts), ``evaluate`` (pass@k),
``bench`` (benchmark attempt functions),
``plots``, ``cli``.
Importing ``rl`` imports nothing heavy.
"""
