"""Agent-loop episodes (``env.loop = "agent"``): the prover's ``LemmaAgent`` on one curriculum
problem, with the policy as its chat model, rewarded by the full verdict on the final proof.

One episode:
1. The curriculum problem's text becomes a ``prover`` problem (``problem_from_text``), checked
   in a ``prover.workspace.Workspace`` over a session pool this environment owns, with the
   episode's own ``Budget`` (``env.agent_wall_s``) and an in-memory trace. The agent's checks
   load the problem's own header only (``allowed_requires = ()``), as the verdict does.
2. ``prover.agent.LemmaAgent(...).run()`` holds the multi-turn conversation, at most
   ``env.max_turns`` model turns. Its chat model is ``PolicyChatModel``. Each ``chat()`` renders
   the conversation to the policy's prompt, samples the policy once, records the sampled token
   ids and sampler log-probabilities, and answers with one tool call
   ``check(proof=<script>)``. The agent checks the script in a warm session and appends
   the tool result (errors, open goals); the next ``chat()`` renders it into the prompt. The
   agent stops at its first complete proof.
3. Reward: ``Verifier.verdict`` (static screen, cache, prescreen, then the full soundness
   verdict; ``rl.verifier``) on the final script: the agent's proof when it claims one, else
   its last attempt. Shaping is ``rl.tactic_env.shaped_reward``, as in the tactic loop. The agent's own
   success is tentative and never pays: ``solved`` is the verdict alone.

Prompt (``render_conversation``): the goal line ``Goal <statement>.`` plus one
``(* tried: <script> => <first error> *)`` line per failed ``check`` call, read from the
conversation's assistant tool calls and tool results. This is the text the tactic loop
(``rl.tactic_env``) writes, so a policy moves between the two loops unchanged. The agent's system and
task messages are not rendered: the policy reads at most ``model.max_prompt_chars`` characters,
and the task message names the theorem, whose name gives away the family.

Action vocabulary: the policy emits tactic tokens (``rl.policy.ACTIONS``), so every answer is a
``check`` call. The other tools (``auto_close``, ``give_up``, ...) get no token. A new
token would change the vocabulary, and with it the shape of every saved model, and
``auto_close`` would let the built-in search earn the reward instead of the policy.

Training data: each turn becomes a ``Turn`` (rendered prompt, action ids, sampler
log-probabilities, policy version), as in the tactic loop, so ``rl.loop`` and the trainer take
agent-loop episodes unchanged. Earlier turns carry the agent's check as a non-accepting
``Verdict`` (source ``"agent"``); the last turn carries the reward-bearing verdict.

Failures are data. An exception inside one episode (a bug, a missing ``coqtop``) makes that
episode's ``error`` "crashed: ..."; the rest of the group goes on. A pinned policy snapshot that
is gone, or that moved while ``streaming`` is off, makes it "interrupted: ...". A spent agent
budget is a normal end, named in ``stop_reason``.

Batching: the episodes of a group run one after another in the calling thread. A chat model
factory with a ``prefetch(sampler, problem, n, seed)`` method (the real LM's,
``rl.lm_agent.LMChatFactory``) samples the whole group's first turns in one batched call, with
the same per-episode seeds; later turns are one sampler call (batch size 1) each.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from prover.llm.base import (
    ChatMessage,
    ChatResponse,
    ToolSpec,
    Usage,
    error_response,
    parse_arguments,
)
from prover.tools import CHECK

from .action_samplers import Completion, SnapshotGone
from .config import EnvConfig
from .policy import script_of
from .records import Episode, Problem, Turn, Verdict
from .tactic_env import render_prompt, shaped_reward

CHECK_TOOL = CHECK.name
"""The agent's check tool (``prover.tools.check``), the one call the policy's answers become."""


class EpisodeInterrupted(RuntimeError):
    """The policy moved to new weights mid-episode and streaming is off."""


# -- prompt rendering ----------------------------------------------------------------------------
_WHERE = re.compile(r"^(?:proof line \d+|line \d+|in the statement or context):\s*")


def first_error(tool_result: str) -> str:
    """The first error of a ``check`` tool result, without its location prefix.

    Results look like ``Errors:\\n- proof line 1: <msg>\\n...\\nOpen goals:...``
    (``CheckResult.feedback``) or are one line (``rejected: ...``, ``error: ...``)."""
    lines = [ln.strip() for ln in tool_result.splitlines() if ln.strip()]
    if lines and lines[0] == "Errors:":
        for ln in lines[1:]:
            if ln.startswith("- "):
                return _WHERE.sub("", ln[2:])
    if lines and lines[0] == "Open goals:":
        return "proof incomplete"
    return lines[0] if lines else "no result"


def render_conversation(problem: Problem, messages: Sequence[ChatMessage]) -> str:
    """The policy's prompt for the agent's conversation so far (see the module docstring)."""
    proofs: dict[str, str] = {}
    history: list[tuple[str, str]] = []
    for m in messages:
        if m.role == "assistant":
            for c in m.tool_calls:
                if c.name == CHECK_TOOL and c.arguments is not None:
                    proofs[c.id] = str(c.arguments.get("proof") or "")
        elif m.role == "tool" and m.tool_call_id in proofs and not m.content.startswith("OK"):
            history.append((proofs[m.tool_call_id] or "<empty>", first_error(m.content)))
    return render_prompt(problem, history)


# -- the policy as a chat model ------------------------------------------------------------------
@dataclass(frozen=True)
class SampledTurn:
    prompt: str
    completion: Completion
    script: str
    version: int
    call_id: str
    text: str = ""
    """The completion's text (real-LM policies only)."""


def turn_seed(seed: int, episode: int, turn: int) -> int:
    """Seed of one sampler call: a pure function of (group seed, episode index, turn)."""
    return (seed * 1_000_003 + episode * 7_919 + turn) % (2**62)


class PolicyChatModel:
    """A ``prover.llm.base.ChatModel`` over an ``rl`` sampler, for one episode (not thread-safe).

    ``chat`` samples the policy on ``render_conversation(problem, messages)`` and answers with one
    ``check`` call; what it sampled is kept in ``turns``. All calls use the snapshot
    ``version`` (latest when None: the first call pins it). ``sampling`` is ignored (the
    sampler's temperature applies). Raises ``EpisodeInterrupted`` or ``SnapshotGone`` instead of
    answering when the episode cannot go on; ``AgentEnvironment`` records that as an interrupted
    episode. Everything else comes back as a ``ChatResponse``.
    """

    name = "rl-policy"

    def __init__(self, sampler, problem: Problem, *, version: int | None, seed: int | None, episode: int,
                 latest_version: Callable[[], int], streaming: bool):
        """One episode's state: the sampler, the problem, the pinned ``version`` (None: latest at the
        first call), the group ``seed`` and ``episode`` index (per-turn seeds: ``turn_seed``), and how
        to read the latest version. Subclasses (``rl.lm_agent.LMChatModel``) add their own settings."""
        self.sampler = sampler
        self.problem = problem
        self.pinned = version
        self.seed = seed
        self.episode = episode
        self.latest_version = latest_version
        self.streaming = streaming
        self.streamed = False
        self.turns: list[SampledTurn] = []
        self.tool_results: dict[str, str] = {}
        """Tool results of earlier calls, by call id, as seen in the conversation."""
        self.gen_seconds = 0.0
        self.prefetched_seconds = 0.0
        """The part of ``gen_seconds`` spent before the episode started (its share of a batched call)."""

    def _follow(self, messages: Sequence[ChatMessage]) -> None:
        """Before a turn: raise ``EpisodeInterrupted`` if the weights moved and streaming is off (else
        mark the episode streamed), and record the tool results seen so far."""
        if self.pinned is not None and self.latest_version() != self.pinned:
            if not self.streaming:
                raise EpisodeInterrupted(f"policy moved from {self.pinned} to {self.latest_version()} mid-episode")
            self.streamed = True
        self.tool_results.update({m.tool_call_id: m.content for m in messages if m.role == "tool" and m.tool_call_id})

    def chat(self, messages: Sequence[ChatMessage], *, tools: Sequence[ToolSpec] = (), sampling=None) -> ChatResponse:
        if tools and CHECK_TOOL not in {t.name for t in tools}:
            return error_response(f"the policy can only call {CHECK_TOOL}, which is not offered")
        self._follow(messages)
        prompt = render_conversation(self.problem, messages)
        k = len(self.turns) + 1
        t0 = time.perf_counter()
        version, comps = self.sampler.sample(
            [prompt], version=self.pinned, seed=None if self.seed is None else turn_seed(self.seed, self.episode, k))
        self.gen_seconds += time.perf_counter() - t0
        self.pinned = version
        comp = comps[0]
        script = script_of(comp.actions)
        call = parse_arguments(CHECK_TOOL, {"proof": script}, f"call_{self.episode}_{k}")
        self.turns.append(SampledTurn(prompt, comp, script, version, call.id))
        return ChatResponse(tool_calls=(call,), usage=Usage(prompt_tokens=len(prompt), completion_tokens=len(comp.logprobs)),
                            finish_reason="tool_calls")


# -- episodes ------------------------------------------------------------------------------------
class AgentEnvironment:
    """``run_group`` like ``rl.tactic_env.Environment``, each episode a ``LemmaAgent`` run (module docstring).

    Thread-safe: rollout threads share it. The proof-assistant session pool (at most
    ``max_sessions`` warm ``coqtop`` processes) starts on first use; ``close()`` ends it.
    """

    def __init__(self, verifier, sampler, cfg: EnvConfig, *, streaming: bool = True, max_sessions: int = 4,
                 chat_model: Callable[..., PolicyChatModel] | None = None):
        """``chat_model``: builds each episode's chat model with ``PolicyChatModel``'s arguments
        (default ``PolicyChatModel``; ``rl.lm_agent.LMChatModel`` for a real LM writing free text)."""
        self.chat_model = chat_model or PolicyChatModel
        self.verifier = verifier
        self.sampler = sampler
        self.cfg = cfg
        self.streaming = streaming
        self.max_sessions = max_sessions
        self._pool = None
        self._lock = threading.Lock()
        self._parsed: dict[str, object] = {}

    # -- shared state --------------------------------------------------------------------------
    def _session_pool(self):
        with self._lock:
            if self._pool is None:
                from lean_tools.pool import SessionPool

                self._pool = SessionPool(max_sessions=self.max_sessions)
            return self._pool

    def _prover_problem(self, problem: Problem):
        with self._lock:
            hit = self._parsed.get(problem.id)
        if hit is None:
            from prover.problem import problem_from_text

            hit = problem_from_text(problem.text, "rocq", name=problem.id)
            with self._lock:
                self._parsed[problem.id] = hit
        return hit

    def _prover_config(self):
        from prover.config import BudgetConfig, ProverConfig, ProverSettings

        return ProverConfig(
            budget=BudgetConfig(wall_s=self.cfg.agent_wall_s),
            prover=ProverSettings(agent_turns=self.cfg.max_turns, workers=1, split_depth=0, automation_first=False,
                                  check_timeout_s=self.cfg.check_timeout, cache_path=None, allowed_requires=(),
                                  record_conversations=False),
        )

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.close()

    # -- one group -----------------------------------------------------------------------------
    def run_group(self, problem: Problem, n: int, *, seed: int | None = None,
                  latest_version: Callable[[], int] | None = None) -> list[Episode]:
        """``n`` agent episodes on ``problem``, all on the snapshot that was latest when the first one sampled."""
        latest = latest_version or (lambda: self.sampler.version)
        out: list[Episode] = []
        pinned: int | None = None
        first = self._first_turns(problem, n, seed)
        for i in range(n):
            extra = {} if first is None else {"first": first[i]}
            ep, pinned = self._episode(problem, i, seed, pinned, latest, extra)
            out.append(ep)
        return out

    def _first_turns(self, problem: Problem, n: int, seed: int | None) -> list | None:
        """The group's first-turn samples in one batched sampler call, when the chat model offers
        ``prefetch`` (every episode's first prompt is the same text); None otherwise or when that
        call fails (each episode then samples, and records any error, on its own)."""
        prefetch = getattr(self.chat_model, "prefetch", None)
        if prefetch is None:
            return None
        try:
            return prefetch(self.sampler, problem, n, seed)
        except Exception:  # noqa: BLE001 - fall back to per-episode sampling, which records the error
            return None

    def _episode(self, problem: Problem, index: int, seed: int | None, pinned: int | None,
                 latest: Callable[[], int], extra: dict | None = None) -> tuple[Episode, int | None]:
        t0 = time.perf_counter()
        llm = self.chat_model(self.sampler, problem, version=pinned, seed=seed, episode=index, latest_version=latest,
                              streaming=self.streaming, **(extra or {}))
        final: Verdict | None = None
        reward = 0.0
        error = None
        try:
            result, stop_reason = self._run_agent(problem, llm)
            if llm.turns:
                script = result.proof if result is not None and result.proved and result.proof else llm.turns[-1].script
                final = self.verifier.verdict(problem, script)
                reward = shaped_reward(self.cfg, self.verifier, problem, script, final, len(llm.turns))
        except Exception as err:  # noqa: BLE001 - a bad rollout is data, not a crash
            kind = "interrupted" if isinstance(err, (EpisodeInterrupted, SnapshotGone)) else "crashed"
            error, stop_reason, final, reward = f"{kind}: {type(err).__name__}: {err}", kind, None, 0.0
        ep = Episode(
            problem_id=problem.id, family=problem.family, difficulty=problem.difficulty,
            turns=self._turns(llm, final), reward=reward, solved=final is not None and final.accepted, error=error,
            version_start=llm.turns[0].version if llm.turns else (-1 if pinned is None else pinned),
            version_end=latest(), streamed=llm.streamed, gen_seconds=llm.gen_seconds,
            check_seconds=time.perf_counter() - t0 - (llm.gen_seconds - llm.prefetched_seconds),
            stop_reason=" ".join(stop_reason.split())[:300],
        )
        return ep, llm.pinned

    def _run_agent(self, problem: Problem, llm: PolicyChatModel):
        """(LemmaResult, or None when a budget stopped the agent; why the agent stopped)."""
        from prover.agent import LemmaAgent
        from prover.budget import Budget
        from prover.errors import BudgetExceeded
        from prover.records import LemmaGoal, LemmaResult
        from prover.trace import Trace
        from prover.workspace import Workspace

        pp = self._prover_problem(problem)
        config = self._prover_config()
        ws = Workspace(pp, config, Budget(config.budget), Trace(None, keep=False), self._session_pool())

        def make_goal(name: str, declaration: str, context: str, *, depth: int = 0, parent: str | None = None):
            return LemmaGoal(problem=pp.name, name=name, language="rocq", header=pp.header, context=context,
                             declaration=declaration, depth=depth, parent=parent)

        def no_sublemmas(goal) -> LemmaResult:
            return LemmaResult(name=goal.name, proved=False, reason="sub-lemmas are not proved in RL episodes")

        goal = make_goal(pp.theorem_name, pp.declaration, "")
        agent = LemmaAgent(goal, ws, llm, prove_sub=no_sublemmas, make_goal=make_goal)
        try:
            result = agent.run()
        except BudgetExceeded as e:
            return None, f"stopped: {e.which} budget spent"
        return result, ("agent claimed a proof" if result.proved else result.reason)

    def _turns(self, llm: PolicyChatModel, final: Verdict | None) -> tuple[Turn, ...]:
        """One ``Turn`` per sampled answer; the last carries ``final`` (the reward-bearing verdict)."""
        out = []
        for k, s in enumerate(llm.turns):
            if final is not None and k == len(llm.turns) - 1:
                verdict = final
            else:
                text = llm.tool_results.get(s.call_id)
                reason = first_error(text) if text is not None else "no tool result (episode ended)"
                verdict = Verdict(accepted=False, reason=reason, source="agent")
            c = s.completion
            out.append(Turn(prompt=s.prompt, actions=c.actions, logprobs=c.logprobs, ended=c.ended, script=s.script,
                            verdict=verdict, policy_version=s.version, text=s.text))
        return tuple(out)

