"""A real LM as the prover agent's chat model: free-form text and ``<tool_call>`` blocks.

``LMChatModel`` is a ``prover.llm.base.ChatModel`` for one RL episode of
``rl.agent_env.AgentEnvironment`` (``model.type = "lm"``). Each ``chat()``:
1. renders the agent's conversation to a prompt (``lm.prompt``):
   - ``"agent"``: the agent's own messages (its system prompt, task and tool descriptions),
     assistant tool calls replayed as ``<tool_call>`` text and tool results as user turns
     (``prover.llm.local.template_messages``), through the tokenizer's chat template;
   - ``"compact"``: one short system line, the goal as ``Theorem goal <statement>.`` (the
     curriculum theorem's name gives away its family, so it is not shown), then the model's
     own earlier answers and the checker's replies. A few hundred tokens instead of ~1,500,
     which is what a CPU can train on;
2. samples one completion from the sampler (version pinned for the episode, seed a pure
   function of group, episode and turn), and
3. answers with the text and any ``<tool_call>`` blocks parsed out of it
   (``prover.llm.base.parse_text_tool_calls``). The agent checks a ``check`` call, or a fenced
   proof in plain text, and replies; anything else gets the agent's own "use the tools" note.
   The compact system line lists Rocq's standard one-step closing tactics; three textbook
   one-line proofs (``COMPACT_EXAMPLES``) come before the goal as earlier turns.

What is kept for training (``turns``): the rendered prompt, the sampled token ids (EOS
included when sampled), their sampling log-probabilities, the policy version and the script
the reward is computed on (the ``check`` call's proof, else the fenced block, else empty).
The reward is never the agent's opinion: ``AgentEnvironment`` takes the full verdict.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass

from prover.llm.base import (
    ChatMessage,
    ChatResponse,
    ToolSpec,
    Usage,
    parse_text_tool_calls,
)

from .action_samplers import Completion
from .agent_env import CHECK_TOOL, PolicyChatModel, SampledTurn, turn_seed
from .records import Problem
from .vllm_engine import TextCompletion

COMPACT_SYSTEM = (
    "You prove Rocq (Coq) theorems. Reply with only the proof's tactics in one ```coq block, without "
    "Proof. or Qed. Standard tactics that close a goal in one step: reflexivity (both sides compute to "
    "the same value), lia (linear arithmetic over nat or Z), ring (equalities in a commutative ring), "
    "field, tauto (propositional logic), auto, trivial. When the goal starts with forall or ->, begin "
    "with intros.")
"""The compact prompt's system line: the reply format and the standard closing tactics, as
general Rocq knowledge (no curriculum family is named)."""
COMPACT_EXAMPLES = (
    ("forall n : nat, n + 0 = n", "intros n. lia."),
    ("forall A B : Prop, A /\\ B -> B /\\ A", "tauto."),
    ("length (1 :: 2 :: nil) = 2", "reflexivity."),
)
"""Textbook one-line proofs shown as earlier turns of the conversation (format demonstrations:
a 135M model copies a shown format far more reliably than it follows a described one)."""
_PROOF_QED = re.compile(r"Proof\.(.*?)(?:Qed\.|Defined\.|$)", re.DOTALL)


def proof_of(text: str, calls) -> str:
    """The script a reply proposes: its first ``check`` call's proof, else its last fenced block, else ""."""
    from lean_tools.assistant import ROCQ

    for c in calls:
        if c.name == CHECK_TOOL and c.arguments is not None:
            return str(c.arguments.get("proof") or "").strip()
    code = ROCQ.extract_code(text)
    if code is None:
        m = _PROOF_QED.search(text)  # an unfenced "Proof. ... Qed." is a proof too
        return m.group(1).strip() if m else ""
    lines = [ln for ln in code.strip().splitlines() if ln.strip() not in ("Proof.", "Qed.")]
    return "\n".join(lines).strip()


def render_compact(problem: Problem, messages: Sequence[ChatMessage]) -> list[dict]:
    out = [{"role": "system", "content": COMPACT_SYSTEM}]
    for statement, proof in COMPACT_EXAMPLES:
        out += [{"role": "user", "content": f"Theorem goal : {statement}."},
                {"role": "assistant", "content": f"```coq\n{proof}\n```"}]
    out.append({"role": "user", "content": f"Theorem goal {problem.statement}."})
    start = len(out)
    for m in messages:
        if m.role == "assistant":
            out.append({"role": "assistant", "content": m.content})
        elif m.role == "tool" or (m.role == "user" and len(out) > start):
            out.append({"role": "user", "content": m.content.replace(problem.name, "goal")[:600]})
    return out


class LMChatModel(PolicyChatModel):
    """One episode's chat model over an ``rl.text_samplers`` sampler (not thread-safe; see module doc).

    Takes ``PolicyChatModel``'s arguments plus ``prompt`` (style), ``max_prompt_tokens`` and
    ``first``: a ``PrefetchedTurn`` sampled for this episode by the group's batched call, used
    for the first turn when its prompt is the one this episode renders (else sampled anew)."""

    name = "rl-lm-policy"

    def __init__(self, sampler, problem: Problem, *, prompt: str = "compact", max_prompt_tokens: int = 1024,
                 first: PrefetchedTurn | None = None, reply_prefix: str = "", **episode):
        super().__init__(sampler, problem, **episode)
        self.prompt_style = prompt
        self.reply_prefix = reply_prefix
        self.max_prompt_tokens = max_prompt_tokens
        self.first = first

    def _render(self, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec]) -> str:
        policy = self.sampler.policy
        if self.prompt_style == "agent":
            from prover.llm.local import template_messages

            return policy.render(template_messages(messages, tools, native=False)) + self.reply_prefix
        return policy.render(render_compact(self.problem, messages)) + self.reply_prefix

    def chat(self, messages: Sequence[ChatMessage], *, tools: Sequence[ToolSpec] = (), sampling=None) -> ChatResponse:
        self._follow(messages)
        prompt = self._render(messages, tools)
        n_prompt = len(self.sampler.policy.encode(prompt))
        if n_prompt > self.max_prompt_tokens:
            return ChatResponse(error=f"prompt of {n_prompt} tokens exceeds lm.max_prompt_tokens = "
                                f"{self.max_prompt_tokens}", finish_reason="error")
        k = len(self.turns) + 1
        if k == 1 and self.first is not None and self.first.prompt == prompt:
            version, comp = self.first.version, self.first.completion
            self.gen_seconds += self.first.seconds
            self.prefetched_seconds += self.first.seconds
        else:
            t0 = time.perf_counter()
            version, comp = self.sampler.sample_text(
                prompt, version=self.pinned, seed=None if self.seed is None else turn_seed(self.seed, self.episode, k))
            self.gen_seconds += time.perf_counter() - t0
        self.pinned = version
        text = self.reply_prefix + self.sampler.policy.decode(comp.token_ids)
        clean, calls = parse_text_tool_calls(text)
        script = proof_of(text, calls)
        call_id = calls[0].id if calls else f"text_{self.episode}_{k}"
        self.turns.append(SampledTurn(prompt, Completion(comp.token_ids, comp.logprobs, comp.finished), script,
                                      version, call_id, text))
        finish = "tool_calls" if calls else ("stop" if comp.finished else "length")
        return ChatResponse(text=clean, tool_calls=calls, finish_reason=finish,
                            usage=Usage(prompt_tokens=n_prompt, completion_tokens=len(comp.token_ids)),
                            token_ids=comp.token_ids, logprobs=comp.logprobs)


@dataclass(frozen=True)
class PrefetchedTurn:
    """A first-turn sample drawn for one episode by the group's batched call."""

    prompt: str
    version: int
    completion: TextCompletion
    seconds: float
    """This episode's share of the batched call's wall time."""


@dataclass(frozen=True)
class LMChatFactory:
    """Builds each episode's ``LMChatModel`` (the ``chat_model`` argument of ``AgentEnvironment``)."""

    prompt: str = "compact"
    max_prompt_tokens: int = 1024
    reply_prefix: str = ""

    def __call__(self, sampler, problem: Problem, **episode) -> LMChatModel:
        return LMChatModel(sampler, problem, prompt=self.prompt, max_prompt_tokens=self.max_prompt_tokens,
                           reply_prefix=self.reply_prefix, **episode)

    def prefetch(self, sampler, problem: Problem, n: int, seed: int | None) -> list[PrefetchedTurn] | None:
        """The ``n`` first turns of a group in one batched call, with the seeds the episodes would
        use (``turn_seed(seed, i, 1)``). None when the sampler cannot batch (``sample_texts``), when
        the prompt style depends on the agent's messages (``"agent"``), or when the prompt is too long
        (each episode then reports that itself)."""
        batch = getattr(sampler, "sample_texts", None)
        if batch is None or self.prompt != "compact":
            return None
        prompt = sampler.policy.render(render_compact(problem, ())) + self.reply_prefix
        if len(sampler.policy.encode(prompt)) > self.max_prompt_tokens:
            return None
        seeds = [None if seed is None else turn_seed(seed, i, 1) for i in range(n)]
        t0 = time.perf_counter()
        version, comps = batch(prompt, seeds)
        share = (time.perf_counter() - t0) / max(1, n)
        return [PrefetchedTurn(prompt, version, c, share) for c in comps]


def lm_chat_factory(sampler, cfg) -> LMChatFactory:
    """The ``chat_model`` argument of ``AgentEnvironment`` for ``cfg`` (an ``RLConfig``)."""
    return LMChatFactory(prompt=cfg.model.prompt, max_prompt_tokens=cfg.model.max_prompt_tokens,
                         reply_prefix=cfg.model.reply_prefix)
