"""Tactics proposed by a tactic language model, as search candidates (the k-NN source's twin).

``SearchBudget.lm_model`` names a saved tactic model folder (``lm_card.TacticModelCard`` in
``tactic-model.json``: a base causal LM and, usually, a LoRA adapter trained by ``rl.tactic_sft``;
``prover-setup model tactics`` installs one). ``load_model`` loads it once per process (cached by
resolved path; a model replaced while the process runs is not reloaded). For each expanded node
``LmSource`` asks the model for ``lm_k`` tactics on the node's first goal, with the prompt of
``lm_prompt.tactic_prompt`` (the one the trainer taught), and turns them into ``step`` candidates
tagged ``lm`` with a short timeout, exactly as ``knn.KnnSource`` does with the index's.

Order (``frontier.SessionSearch``): a node's own candidates are the registry's closers, the k-NN
suggestions and the registry's steps; the model's turn on the node is a queue entry of its own,
ranked ``LM_COST`` above the node (where its proposals' children would start), so the model is
asked only when nothing cheaper is left in the queue. A tactic proposed by an earlier source is
not proposed again. The model's proposals keep its order (highest sequence log-probability first).

Filters, as in ``knn.py``: the completion must be one sentence ending in a period
(``lm_prompt.parse_completion``); a tactic equal (whitespace-normalised, final period dropped) to
a registry candidate, a k-NN suggestion or an earlier proposal is dropped; one naming a hypothesis
absent from the goal is skipped (``knn.names_absent_hypothesis``); ``admit``/``give_up`` and
``...``-terminated tactics are never proposed.

Cost: a model call is a beam search of ``k`` beams; with SmolLM2-135M on two CPU cores shared with
other jobs it took seconds, far more than an index lookup. Its time is charged to the search's
budget (``SessionSearch.used``: its CPU seconds on a CPU clock, its wall seconds on a wall clock)
and reported (``SearchResult.lm_seconds``, ``lm_cpu_seconds``); at most ``max_calls`` goals are
asked per search (``DEFAULT_MAX_CALLS``), and none once the budget left is below ``LM_MIN_LEFT``
or below the mean call of the model in this process so far, or when that mean call is more than
``LM_MAX_CALL_SHARE`` of the whole budget (``LmSource.affordable``). Loading the model is
paid once per process, outside any budget, and reported apart (``SearchResult.lm_load_seconds``).
Rocq only.

A card with an ``endpoint`` names a model served elsewhere (an OpenAI-compatible server, e.g. vLLM
on a GPU machine): ``OpenAITacticModel`` asks its completions endpoint for ``k`` samples instead of
loading weights. Loading it asks the server's model list once: a server that does not answer, or
does not serve the card's ``base`` name, makes the model unavailable (``LmUnavailable``, with the
names it serves); a failed request later is counted (``LmSource.failed``) and the node gets no
proposals.

Not covered: sampling in process (the proposals are the beams of ``lm_beams.beam_search``),
batching several goals in one call, GPUs in process (the model runs where torch puts it by
default: the CPU).
"""

from __future__ import annotations

import math
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Protocol

from ..presets import KNN_SETUP
from .goal import Candidate
from .knn import step_candidates, usable_tactics
from .lm_beams import beam_search
from .lm_card import CardError, TacticModelCard, read_card
from .lm_prompt import parse_completion, tactic_prompt

LM_TAG = "lm"
"""The tag of every model candidate (``SearchResult.tags`` holds it when one is on the proof path)."""
LM_COST = 1.5
"""Prior cost of a model step's child: as a k-NN step's, above a registry step's usual 1.0 (the
registry chose its tactic for the goal's shape; the model guessed it)."""
DEFAULT_MAX_CALLS = 12
"""Model calls per search. A call costs one to several seconds on two shared cores, so an
unbounded source would spend a whole budget on the first nodes' calls; twelve cover the root and
its first children in a search of a minute or more and leave the registry most of the budget
(with the default 5 s the model is asked only until its first call is known:
``LM_MAX_CALL_SHARE``)."""
LM_MIN_LEFT = 1.0
"""Budget seconds below which the model is not asked about a new node."""
LM_MAX_CALL_SHARE = 0.1
"""The largest share of the whole budget one model call may cost (its mean call in this process):
a dearer model is not asked at all. A search asks the model about several nodes and then tries
each proposal in the session; when one call costs more than a tenth of the budget, the calls take
the time the search's own steps would have used (with SmolLM2 on one CPU thread a call costs
0.7-1.5 s of CPU, so the model is asked with budgets from about 10 s, not with the default 5 s).
The mean is the process's: once it is over the share, the model is not asked again in that process
at that budget. A served model's share is its wall time per call."""
THREADS_ENV = "PROVER_TACTIC_THREADS"
"""Torch threads of the process when the model is first loaded (``torch.set_num_threads``): 1 when
unset, ``0`` leaves torch's own choice (one per core). One thread, because the search shares the
cores with coqtop and with other workers: with the cores busy, torch's threads wait on each other
and a call with two threads was measured more than ten times slower than with one."""


class LmUnavailable(Exception):
    """The tactic model cannot be loaded; the message names the command that installs it."""


class LmCallError(Exception):
    """One model call failed (a served model's request); the search goes on without its proposals."""


@dataclass(frozen=True)
class Proposal:
    """One tactic a model proposes for a goal."""

    tactic: str
    """The tactic sentence (``lm_prompt.parse_completion`` of the completion: one line, final period)."""
    logprob: float
    """Sum of the completion's token log-probabilities (its newline or end token included)."""
    tokens: int
    """Tokens the model generated for this completion, up to and including the one that ended it."""


class TacticModel(Protocol):
    """What ``LmSource`` asks: up to ``k`` distinct tactics for a prompt, best first."""

    def propose(self, prompt: str, k: int) -> list[Proposal]: ...


def runs_in_process(model: object) -> bool:
    """Whether ``model`` computes in the calling thread (its CPU is what a call costs here) rather
    than on a server (a call's cost is the wait). A model says so by ``in_process``; one that does
    not say is taken to run here."""
    return bool(getattr(model, "in_process", True))


@dataclass(frozen=True)
class Completion:
    """A raw completion of one beam or sample: its text, log-probability and tokens. The text of a
    beam keeps the newline that ended it; a served sample's does not (vLLM drops the stop string
    from the text), but its tokens and log-probability count the newline token in both cases."""

    text: str
    logprob: float
    tokens: int


def proposals(completions: list[Completion]) -> list[Proposal]:
    """The completions that parse as one tactic sentence, deduplicated (the best log-probability
    of a tactic kept), highest log-probability first."""
    best: dict[str, Proposal] = {}
    for c in completions:
        tac = parse_completion(c.text)
        if tac is not None and (tac not in best or c.logprob > best[tac].logprob):
            best[tac] = Proposal(tac, c.logprob, c.tokens)
    return sorted(best.values(), key=lambda p: -p.logprob)


@dataclass
class TransformersTacticModel:
    """A tactic model run in process with ``transformers`` (the base model with its LoRA adapter
    merged into it), on the CPU in float32. Build it with ``load`` (or ``load_model``, cached)."""

    in_process: ClassVar[bool] = True
    """Computes in the calling thread (``runs_in_process``)."""
    model: Any
    tokenizer: Any
    card: TacticModelCard
    stop_ids: tuple[int, ...]
    """Token ids that end a completion: every token whose text holds a newline, and the end token."""

    @classmethod
    def load(cls, folder: str | Path, card: TacticModelCard) -> TransformersTacticModel:
        """Load the model of ``card``, saved in ``folder``. Raises ``LmUnavailable`` when the base or
        adapter is missing or does not load."""
        folder = Path(folder)
        base = base_folder(card, folder)
        adapter = card.adapter_path(folder)
        if adapter is not None and not (adapter / "adapter_config.json").is_file():
            raise LmUnavailable(f"the tactic model's adapter is missing: no {adapter / 'adapter_config.json'}; run `{KNN_SETUP}` again")
        import torch  # heavy: only when a model is used
        from transformers import AutoModelForCausalLM, AutoTokenizer
        from transformers.utils import logging as hf_logging

        threads = os.environ.get(THREADS_ENV) or "1"
        if not threads.isdigit():
            raise LmUnavailable(f"{THREADS_ENV}={threads!r} is not a number of threads")
        if int(threads) > 0:
            torch.set_num_threads(int(threads))
        bar = hf_logging.is_progress_bar_enabled()
        hf_logging.disable_progress_bar()  # no progress bar in the middle of prove's output
        try:
            tokenizer = AutoTokenizer.from_pretrained(base)
            model = AutoModelForCausalLM.from_pretrained(base, dtype=torch.float32)
            if adapter is not None:
                from peft import PeftModel

                model = PeftModel.from_pretrained(model, str(adapter)).merge_and_unload()
        except (OSError, ValueError) as e:  # missing or foreign weights, a tokenizer that does not load
            raise LmUnavailable(f"the tactic model in {folder} does not load ({' '.join(str(e).split())[:200]})") from None
        finally:
            if bar:
                hf_logging.enable_progress_bar()
        model.eval()
        return cls(model, tokenizer, card, stop_ids(tokenizer, tokenizer.eos_token_id))

    def complete(self, prompt: str, k: int) -> list[Completion]:
        """``k`` beams of a beam search on ``prompt`` (``lm_beams.beam_search``: a beam's score is
        the sum of its tokens' log-probabilities), each ended by its first stop token or by
        ``card.max_new_tokens``; best first."""
        ids = self.tokenizer(prompt)["input_ids"]
        found = beam_search(self.model, ids, beams=k, max_new_tokens=self.card.max_new_tokens, stop_ids=self.stop_ids)
        return [Completion(self.tokenizer.decode(list(b.tokens), skip_special_tokens=True), b.score, len(b.tokens))
                for b in found]

    def propose(self, prompt: str, k: int) -> list[Proposal]:
        """Up to ``k`` distinct tactics from ``complete`` (``proposals``)."""
        return proposals(self.complete(prompt, k))


def stop_ids(tokenizer: Any, eos: int | None) -> tuple[int, ...]:
    """Token ids that end a tactic completion, sorted: every vocabulary token whose text holds a
    newline, and ``eos`` (the end-of-text token; None: none). The trainer's evaluation decodes with
    the same set."""
    stop = {int(i) for tok, i in tokenizer.get_vocab().items() if "\n" in tokenizer.convert_tokens_to_string([tok])}
    if eos is not None:
        stop.add(int(eos))
    return tuple(sorted(stop))


def base_folder(card: TacticModelCard, folder: Path) -> Path:
    """The base model's folder: a bundled name prepared by ``prover.models.ensure_model`` (without
    installing a package), else a folder relative to the card's."""
    from ..models import BUNDLED, ModelSetupError, ensure_model

    if card.base in BUNDLED:
        try:
            return ensure_model(card.base, install=False, log=lambda _line: None)
        except ModelSetupError as e:
            raise LmUnavailable(f"the tactic model's base {card.base!r} is not prepared ({e}): run `{KNN_SETUP}`") from None
    base = (folder / card.base).expanduser()
    if not (base / "config.json").is_file():
        raise LmUnavailable(f"the tactic model's base model is missing: no {base / 'config.json'}; run `{KNN_SETUP}` again")
    return base


@dataclass
class OpenAITacticModel:
    """A tactic model served by an OpenAI-compatible server (``TacticModelCard.endpoint``, e.g.
    ``prover-serve`` or vLLM on a GPU machine): one completions request of ``n=k`` samples, each
    stopped at its newline, with the sampled tokens' log-probabilities. Samples, not beams: the
    ``k`` samples may repeat a tactic (``proposals`` keeps it once). (vLLM offers beam search on
    this endpoint as an extension, ``use_beam_search``; on two CPU cores four beams took 51 s
    against a few seconds for eight samples, so it is not asked for.)

    What a vLLM 0.32 server was seen to do with this request: it accepts ``n`` with a LoRA module
    as ``model``; ``logprobs=0`` gives the sampled token's log-probability only (more than 20 is
    refused with HTTP 400); a choice's ``text`` stops before the newline while its
    ``logprobs.tokens`` end with the newline token; a completion cut by ``max_tokens`` has
    ``finish_reason`` ``"length"``; an unknown ``model`` is HTTP 404."""

    in_process: ClassVar[bool] = False
    """The server computes; a call costs the search its wait (``runs_in_process``)."""
    client: Any
    """An ``openai.OpenAI`` client (anything with ``completions.create`` and ``models.list``)."""
    model: str
    """The name the server gives the model (a LoRA module's name when the server holds the adapter)."""
    max_new_tokens: int = 48
    temperature: float = 1.0

    @classmethod
    def connect(cls, card: TacticModelCard, timeout: float = 30.0, client: Any = None) -> OpenAITacticModel:
        """A client for ``card.endpoint`` (``client``: one already made), after one request for the
        server's model list: ``LmUnavailable`` when the server does not answer or does not serve
        ``card.base``."""
        import openai

        if card.endpoint is None:
            raise ValueError("the card names no endpoint: load the model in process (TransformersTacticModel)")
        if client is None:
            client = openai.OpenAI(base_url=card.endpoint.rstrip("/"), api_key=os.environ.get("OPENAI_API_KEY") or "EMPTY",
                                   max_retries=1, timeout=timeout)
        try:
            served = sorted(m.id for m in client.models.list())
        except openai.OpenAIError as e:
            raise LmUnavailable(f"the tactic model's server at {card.endpoint} does not answer its model list "
                                f"({type(e).__name__}: {' '.join(str(e).split())[:200]})") from None
        if card.base not in served:
            raise LmUnavailable(f"the server at {card.endpoint} serves {', '.join(map(repr, served)) or 'no model'}, not "
                                f"{card.base!r}: the card's `base` must be the served name (a LoRA module's, for an adapter)")
        return cls(client, card.base, card.max_new_tokens)

    def complete(self, prompt: str, k: int) -> list[Completion]:
        """``k`` sampled completions (``LmCallError`` when the request fails), best first."""
        import openai

        try:
            out = self.client.completions.create(model=self.model, prompt=prompt, n=k, max_tokens=self.max_new_tokens,
                                                 temperature=self.temperature, logprobs=0, stop=["\n"])
        except openai.OpenAIError as e:
            raise LmCallError(f"{type(e).__name__}: {' '.join(str(e).split())[:200]}") from None
        done = []
        for choice in out.choices:
            lp = choice.logprobs
            tokens = (lp.tokens if lp is not None else None) or []
            logprobs = [x for x in (lp.token_logprobs if lp is not None else None) or [] if x is not None]
            done.append(Completion(choice.text, float(sum(logprobs)), len(tokens)))
        return sorted(done, key=lambda c: -c.logprob)

    def propose(self, prompt: str, k: int) -> list[Proposal]:
        """Up to ``k`` distinct tactics from ``complete`` (``proposals``)."""
        return proposals(self.complete(prompt, k))


_LOADED: dict[Path, TacticModel] = {}
_LOADING = threading.Lock()
"""Held while a model loads: lemma searches in parallel threads load it once."""


def load_model(path: str) -> TacticModel:
    """The tactic model saved in folder ``path``, loaded once per process (``LmUnavailable`` when
    it is not installed or does not load): in process (``TransformersTacticModel``), or a client of
    the server its card names (``OpenAITacticModel``)."""
    key = Path(path).expanduser().resolve()
    with _LOADING:
        if key in _LOADED:
            return _LOADED[key]
        try:
            card = read_card(key)
            _LOADED[key] = OpenAITacticModel.connect(card) if card.endpoint else TransformersTacticModel.load(key, card)
        except FileNotFoundError:
            raise LmUnavailable(f"the tactic language model is not installed at {key}: run `{KNN_SETUP}`") from None
        except CardError as e:
            raise LmUnavailable(f"{e}: run `{KNN_SETUP}` again") from None
        except ImportError as e:
            raise LmUnavailable(f"the tactic model needs torch, transformers and peft (`pip install .[torch]`): {e}") from None
    return _LOADED[key]


@dataclass
class CallHistory:
    """What the calls of one loaded model have cost in this process, over all its searches: a
    search's first call is judged affordable by the calls of the searches before it."""

    calls: int = 0
    wall: float = 0.0
    cpu: float = 0.0

    def add(self, wall: float, cpu: float) -> None:
        self.calls += 1
        self.wall += wall
        self.cpu += cpu


_HISTORY: dict[int, tuple[object, CallHistory]] = {}


def call_history(model: object) -> CallHistory:
    """The ``CallHistory`` of ``model`` in this process (made on first use)."""
    held = _HISTORY.get(id(model))
    if held is None or held[0] is not model:
        held = _HISTORY[id(model)] = (model, CallHistory())
    return held[1]


@dataclass
class LmSource:
    """The tactic model of one search, with what it cost and proposed so far (shared by the
    sessions of one ``prove_goal`` call, so a restart after a lost session keeps the counts)."""

    model: TacticModel
    k: int = 8
    timeout: float = 1.0
    max_calls: int = DEFAULT_MAX_CALLS
    """Goals the model is asked about in this search; once spent, new goals get no proposals."""
    seconds: float = 0.0
    """Wall seconds spent in the model and the filters (charged to a wall-clock budget)."""
    cpu_seconds: float = 0.0
    """What a CPU-clock budget is charged: for a model in process the calling thread's CPU seconds
    (torch runs the model in it with the default one thread, ``THREADS_ENV``; the CPU of more
    threads is not counted), so that a machine busy with other jobs does not make a call look
    dearer; for a served model the wall seconds (its work is done elsewhere, the search waits)."""
    load_seconds: float = 0.0
    """Seconds this search spent loading the model (0 when an earlier search in the process did)."""
    calls: int = 0
    tokens: int = 0
    """Tokens of the proposals the model returned (``Proposal.tokens`` summed)."""
    tried: int = 0
    """Proposals run as attempts (``SessionSearch.run`` counts them)."""
    skipped: int = 0
    """Proposals skipped for naming a hypothesis absent from the goal."""
    failed: int = 0
    """Calls that failed (``LmCallError``: a served model's request); the goal gets no proposals."""
    _asked: dict[tuple[str, int], list[str]] = field(default_factory=dict)

    def affordable(self, left: float, cpu: bool = False, total: float = math.inf) -> bool:
        """Whether a node is worth a call with ``left`` budget seconds: at least ``LM_MIN_LEFT`` and
        the mean call of this model in this process so far, in all searches (a call started with
        less would overrun the budget), and that mean call at most ``LM_MAX_CALL_SHARE`` of the
        whole budget ``total``; ``cpu``: the budget is on the CPU clock."""
        history = call_history(self.model)
        mean = (history.cpu if cpu else history.wall) / history.calls if history.calls else 0.0
        return left >= max(LM_MIN_LEFT, mean) and mean <= LM_MAX_CALL_SHARE * total

    def candidates(self, goal_text: str, others: int, taken: set[str]) -> list[Candidate]:
        """Step candidates for the first goal ``goal_text`` (``others``: how many more goals are
        focused), without the tactics in ``taken`` (normalised tactics of the node's earlier
        candidates; the ones returned are added to it)."""
        t0, c0, calls0 = time.monotonic(), time.thread_time(), self.calls
        try:
            out, skipped = step_candidates(self._tactics(goal_text, others), goal_text, taken,
                                           timeout=self.timeout, cost=LM_COST, tag=LM_TAG)
            self.skipped += skipped
            return out
        finally:
            wall = time.monotonic() - t0
            cpu = time.thread_time() - c0 if runs_in_process(self.model) else wall
            self.seconds += wall
            self.cpu_seconds += cpu
            if self.calls > calls0:
                call_history(self.model).add(wall, cpu)

    def _tactics(self, goal_text: str, others: int) -> list[str]:
        """The model's distinct usable tactics for the goal, best first (asked once per goal, and
        not at all once ``max_calls`` goals were asked)."""
        key = (goal_text, others)
        if key not in self._asked:
            if self.calls >= self.max_calls:
                return []
            self.calls += 1
            try:
                found = self.model.propose(tactic_prompt(goal_text, others), self.k)
            except LmCallError:
                self.failed += 1
                found = []
            self.tokens += sum(p.tokens for p in found)
            self._asked[key] = usable_tactics(p.tactic for p in found)
        return self._asked[key]
