"""Frozen records handed between the RL stages; each is one JSONL line.

problem (curriculum) -> turn (one policy completion + its check) -> episode (a rollout:
turns, reward, timings, policy versions) -> step metrics (one trainer step).
A failed or crashed rollout is an ``Episode`` with ``error`` set, never an exception.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    def to_json(self) -> str:
        return self.model_dump_json()

    @classmethod
    def from_json(cls, line: str):
        return cls.model_validate_json(line)


class Problem(_Record):
    """A generated Rocq theorem. ``text`` is a complete file whose proof is ``Admitted``."""

    id: str
    family: str
    difficulty: int
    """Generator parameter (number of variables, degree, depth, conjuncts); larger is harder."""
    split: str
    """"train" or "heldout" (a pure function of the statement, so the sets are disjoint)."""
    header: str
    """Imports and scopes the statement needs (may be empty)."""
    name: str
    statement: str
    """Everything after the theorem name up to the final period: binders, colon, type."""
    witness: str
    """A tactic script the generator knows proves it (used by tests only, never by the policy)."""

    @property
    def text(self) -> str:
        return self.with_proof(None)

    def with_proof(self, script: str | None) -> str:
        head = (self.header + "\n") if self.header else ""
        body = "Admitted." if script is None else f"  {script}\nQed."
        return f"{head}Theorem {self.name} {self.statement}.\nProof.\n{body}\n"


class Verdict(_Record):
    """The reward-bearing verdict on one candidate."""

    accepted: bool
    reason: str
    source: str
    """Which path decided: "soundness", "checker", "prescreen", "static", "cache:<source>"."""
    seconds: float = 0.0
    fresh_checks: int = 0
    """Fresh proof-checker processes this verdict cost (0 for cache hits and prescreen rejects)."""


class Turn(_Record):
    prompt: str
    actions: tuple[int, ...]
    """Action-token ids emitted, excluding the end token."""
    logprobs: tuple[float, ...]
    """Sampler log-probabilities of each emitted token, the end token included when emitted."""
    ended: bool
    """The policy emitted the end token (False: cut at max_new_tokens)."""
    script: str
    verdict: Verdict
    policy_version: int
    text: str = ""
    """Real-LM policies (``model.type = "lm"``): the completion as text; ``actions`` then holds
    its token ids (EOS included when sampled). Empty for tactic-token policies."""


class Episode(_Record):
    problem_id: str
    family: str
    difficulty: int
    turns: tuple[Turn, ...] = ()
    reward: float = 0.0
    solved: bool = False
    error: str | None = None
    """Set when the rollout crashed (the exception's type and message); reward is then 0."""
    version_start: int = 0
    version_end: int = 0
    streamed: bool = False
    """Weights changed while this episode ran and it finished on its older snapshot."""
    gen_seconds: float = 0.0
    check_seconds: float = 0.0
    stop_reason: str = ""
    """Agent-loop episodes only: why the agent stopped ("agent claimed a proof", its
    ``LemmaResult.reason``, or a spent budget). Never decides the reward."""


class StepMetrics(_Record):
    """One row of ``metrics.jsonl``."""

    step: int
    mode: str
    policy_version: int = 0
    """The version the trainer pushed to the sampler after this step (the step's samples came
    from earlier versions; ``staleness_mean`` says how much earlier)."""
    loss: float
    reward_mean: float
    solved_rate: float
    samples: int
    tokens: int
    groups_dropped_uniform: int = 0
    samples_dropped_stale: int = 0
    episodes_streamed: int = 0
    episodes_interrupted: int = 0
    episodes_crashed: int = 0
    staleness_mean: float = 0.0
    clip_frac: float = 0.0
    tis_weight_mean: float = 1.0
    kl: float = 0.0
    pos_nll: float = 0.0
    entropy: float = 0.0
    grad_norm: float = 0.0
    step_seconds: float = 0.0
    wait_seconds: float = 0.0
    train_seconds: float = 0.0
    gen_seconds: float = 0.0
    check_seconds: float = 0.0
    fresh_checks: int = 0
    cache_hits: int = 0
    checker_share: float = 0.0
    """Share of the step the trainer spent waiting on proof checking: ``wait_seconds /
    step_seconds`` times the checking share of the rollout workers' time, ``check_seconds /
    (gen_seconds + check_seconds)`` (exact with one rollout worker in sync mode; with several
    workers or async, the trainer's wait split in proportion to what the workers did)."""
    rollouts_per_s: float = 0.0
    checks_per_s: float = 0.0
    train_tokens_per_s: float = 0.0
    """Action tokens (the ones with a loss) per second of training."""
    train_seq_tokens: int = 0
    """Prompt + action tokens the trainer ran forward/backward over (one epoch)."""
    problems_downweighted: float = 0.0
    """Share of training problems the difficulty filter currently down-weights (pass rate 0 or 1)."""
    heldout_pass1: float | None = None
    by_family: dict[str, float] = {}
