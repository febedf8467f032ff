"""Episodes: the policy's own tactic loop on one problem, rewarded by the full verdict.

This is ``env.loop = "tactic"`` (the default); ``rl.agent_env`` runs the prover's agent loop
instead (``env.loop = "agent"``). Both return the same ``Episode`` records.

One episode = up to ``max_turns`` turns. Each turn the policy reads the prompt (the goal
statement - never the theorem's name, which would leak the family - plus, after a failed
turn, a tool result ``(* tried: <script> => <first checker error> *)``), emits a tactic
script, and the verifier (``rl.verifier``) checks it. The episode stops at the first
accepted script.

Reward: 1.0 if the final verdict accepts, else 0.0. Optional shaping (``env.shaping``):
``turn_penalty`` gives 1 - 0.1 * (t - 1) for a proof found on turn t; ``goal_credit`` gives a
rejected final script ``goal_credit_weight`` (< 1) times the share of goals its error-free
prefix closed (``Verifier.progress``; per-goal credit, e.g. one conjunct of two proved -> 0.5).
``solved`` is always the verdict alone. Algorithm shaping (DAPO overlong) is applied later by
the algorithm hook, not here.

A group is the ``group_size`` episodes of one problem, generated together (one batched
sampler call per turn). Exceptions never escape: a crashed episode is an ``Episode`` with
``error`` set; an episode whose pinned policy snapshot disappeared (non-streaming mode, or
evicted) has ``error`` starting with "interrupted".
"""

from __future__ import annotations

import time
from collections.abc import Callable

from .action_samplers import SnapshotGone
from .config import EnvConfig
from .policy import script_of
from .records import Episode, Problem, Turn, Verdict
from .verifier import Verifier


def render_prompt(problem: Problem, history: list[tuple[str, str]]) -> str:
    """``Goal <statement>.`` and one ``(* tried: <script> => <error> *)`` line per failed turn.

    The theorem's name never appears: Rocq names the proof in some errors ("(in proof
    taut_...): Attempt to save an incomplete proof"), so it is replaced by ``goal`` there."""
    lines = [f"Goal {problem.statement}."]
    for script, error in history:
        lines.append(f"(* tried: {script} => {error.replace(problem.name, 'goal')[:80]} *)")
    return "\n".join(lines)


def shaped_reward(cfg: EnvConfig, verifier, problem: Problem, script: str, verdict: Verdict, turn: int) -> float:
    """The episode reward for a final ``script`` (tried on turn ``turn``) and its verdict.

    1.0 exactly when the verdict accepts (less under ``turn_penalty``); a rejected script earns
    0.0, or under ``goal_credit`` at most ``goal_credit_weight`` < 1, so no shaping lets a
    rejected script tie a proof."""
    if not verdict.accepted:
        progress = getattr(verifier, "progress", None)
        if cfg.shaping == "goal_credit" and progress is not None:
            return cfg.goal_credit_weight * progress(problem, script)
        return 0.0
    if cfg.shaping == "turn_penalty":
        return max(0.0, 1.0 - 0.1 * (turn - 1))
    return 1.0


class Environment:
    def __init__(self, verifier: Verifier, sampler, cfg: EnvConfig, *, streaming: bool = True):
        self.verifier = verifier
        self.sampler = sampler
        self.cfg = cfg
        self.streaming = streaming

    def _reward(self, problem: Problem, script: str, verdict: Verdict, turn: int) -> float:
        return shaped_reward(self.cfg, self.verifier, problem, script, verdict, turn)

    def close(self) -> None:
        """Nothing to release: the verifier's sessions belong to the verifier."""

    def run_group(self, problem: Problem, n: int, *, seed: int | None = None,
                  latest_version: Callable[[], int] | None = None) -> list[Episode]:
        """``n`` episodes on ``problem``, all pinned to the sampler's latest snapshot at start."""
        try:
            return self._run_group(problem, n, seed, latest_version or (lambda: self.sampler.version))
        except Exception as err:  # noqa: BLE001 - a bad rollout is data, not a crash
            kind = "interrupted" if isinstance(err, SnapshotGone) else "crashed"
            msg = f"{kind}: {type(err).__name__}: {err}"
            return [Episode(problem_id=problem.id, family=problem.family, difficulty=problem.difficulty, error=msg)
                    for _ in range(n)]

    def _run_group(self, problem: Problem, n: int, seed: int | None, latest_version: Callable[[], int]) -> list[Episode]:
        pinned: int | None = None
        turns: list[list[Turn]] = [[] for _ in range(n)]
        history: list[list[tuple[str, str]]] = [[] for _ in range(n)]
        solved = [False] * n
        errors: list[str | None] = [None] * n
        streamed = False
        gen_s = check_s = 0.0
        for t in range(1, self.cfg.max_turns + 1):
            open_ix = [i for i in range(n) if not solved[i] and errors[i] is None]
            if not open_ix:
                break
            if pinned is not None and latest_version() != pinned:
                if not self.streaming:
                    for i in open_ix:
                        errors[i] = f"interrupted: policy moved from {pinned} to {latest_version()} mid-episode"
                    break
                streamed = True
            prompts = [render_prompt(problem, history[i]) for i in open_ix]
            t0 = time.perf_counter()
            version, comps = self.sampler.sample(
                prompts, version=pinned, seed=None if seed is None else seed * 1000 + t)
            gen_s += time.perf_counter() - t0
            pinned = version
            for i, prompt, comp in zip(open_ix, prompts, comps):
                script = script_of(comp.actions)
                t1 = time.perf_counter()
                verdict = self.verifier.verdict(problem, script)
                check_s += time.perf_counter() - t1
                turns[i].append(Turn(prompt=prompt, actions=comp.actions, logprobs=comp.logprobs, ended=comp.ended,
                                     script=script, verdict=verdict, policy_version=version))
                if verdict.accepted:
                    solved[i] = True
                else:
                    history[i].append((script or "<empty>", verdict.reason))
        v = pinned if pinned is not None else -1
        v_end = latest_version()
        out = []
        for i in range(n):
            last = turns[i][-1] if turns[i] else None
            reward = 0.0
            if last is not None and errors[i] is None:
                reward = self._reward(problem, last.script, last.verdict, len(turns[i]))
            out.append(Episode(
                problem_id=problem.id, family=problem.family, difficulty=problem.difficulty,
                turns=tuple(turns[i]), reward=reward, solved=solved[i], error=errors[i],
                version_start=v, version_end=v_end, streamed=streamed and self.cfg.max_turns > 1,
                gen_seconds=gen_s / n, check_seconds=check_s / n,
            ))
        return out
