"""Prover configuration: pydantic models loaded from TOML, with environment and CLI overrides.

Precedence (later wins): defaults < TOML file < environment < CLI flags.
Environment variables: ``PROVER_BACKEND`` (none|openai|vllm|transformers), ``PROVER_MODEL``,
``PROVER_ENDPOINT``, ``PROVER_WORKERS``, ``PROVER_TIMEOUT``. Setting a model or endpoint with
the backend still ``none`` switches it to ``openai``. The API key is never stored in the
config: it is read at call time from the variable named by ``model.api_key_env``
(``OPENAI_API_KEY`` by default), so it never reaches a trace.

This module imports neither torch nor vllm.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Cfg(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ModelConfig(_Cfg):
    type: Literal["none", "openai", "vllm", "transformers"] = "none"
    """none: built-in search only; openai: any OpenAI-compatible HTTP server (vLLM serve,
    hosted APIs); vllm: in-process vLLM; transformers: local weights via transformers."""
    model: str = ""
    """Model name (openai/vllm) or local path (transformers, vllm)."""
    endpoint: str = "http://127.0.0.1:8000/v1"
    """Base URL of the OpenAI-compatible server (``.../v1``)."""
    api_key_env: str = "OPENAI_API_KEY"
    timeout_s: float = 300.0
    """Per-request timeout."""
    max_retries: int = 3
    """Retries on timeouts, connection errors, HTTP 429/5xx (exponential backoff)."""
    backoff_s: float = 1.0
    concurrency: int = 8
    """Most requests in flight at once (per client)."""
    native_tools: bool = True
    """Send OpenAI ``tools``; if false, tools are described in the prompt and calls parsed
    from ``<tool_call>{json}</tool_call>`` blocks in the text (for servers without tool parsing).
    A server that refuses ``tools`` (vLLM without ``--enable-auto-tool-choice``) switches the
    client to text tools by itself, once (an ``llm_fallback`` trace event)."""
    initial_tokens_per_s: float | None = 8.0
    """Generation rate the OpenAI client assumes until it has measured one, to size
    ``max_tokens`` to the time left (vLLM on our 2-core CPUs measured ~12 tokens/s with
    SmolLM2-135M; a lower guess keeps the first answer inside its deadline). The measured
    rate replaces it after the first answer. None: no time-based cap until measured."""
    max_model_len: int | None = None
    """The model's context length in tokens, used when the server does not report it
    (vLLM reports ``max_model_len`` in ``/v1/models``). None: unknown, nothing trimmed
    unless the server reports it."""
    device: str = "cpu"
    """transformers backend: torch device."""
    dtype: str = "auto"


class SamplingConfig(_Cfg):
    temperature: float = 0.6
    top_p: float = 0.95
    max_tokens: int = 4096
    """Upper bound on completion tokens; the OpenAI client lowers it per request to what the
    context (``max_model_len`` minus the prompt) and the remaining wall budget leave."""
    seed: int | None = None
    logprobs: bool = False
    """Ask for the sampled tokens' log-probabilities (and token ids where the server gives
    them): ``ChatResponse.logprobs`` / ``token_ids``."""
    tool_choice: Literal["auto", "required"] = "auto"
    """With tools: ``auto`` lets the model answer in text or call tools; ``required`` asks for a
    tool call (OpenAI servers: ``tool_choice``, enforced by vLLM's guided decoding; in-process
    backends: the answer is started with ``<tool_call>``; text-tool mode cannot enforce it)."""


class BudgetConfig(_Cfg):
    """Limits for one problem. A run stops (as a value, with ``stopped_by``) when one is spent."""

    wall_s: float = 600.0
    tokens: int = 2_000_000
    """LLM tokens, prompt + completion."""
    checker_cpu_s: float = 3600.0
    attempts: int = 400
    """Proof attempts checked by the proof assistant (agent checks + portfolio runs)."""


class SearchSettings(_Cfg):
    """Settings handed to the built-in search (``prover.search.prove_goal``)."""

    timeout_s: float = 60.0
    """Wall-clock limit for one search call (the whole theorem or one lemma)."""
    lemma_timeout_s: float = 10.0
    """Limit when the portfolio is run on a sketch lemma before (or instead of) the agent."""
    hammer: Literal["off", "fallback", "only"] = "fallback"
    """CoqHammer in the search on a whole theorem (``prover.search.SearchBudget.hammer``):
    ``fallback`` runs ``hammer`` once the tactic search failed with at least 15 s left, ``only``
    runs nothing else, ``off`` never. Proofs keep the replayed reconstruction, never ``hammer``."""
    hammer_timeout_s: float = 30.0
    """Limit of one ``hammer`` call (its ATPs' CPU counts as checker CPU)."""
    knn_index: str | None = None
    """Folder of the k-NN tactic index (``prover.search.SearchBudget.knn_index``; ``prove --preset
    knn`` sets it to ``~/.cache/agentic-prover/tactics/knn``, built by ``prover-setup model
    tactics``): its suggestions join the built-in search's candidates. None: off."""
    knn_k: int = Field(8, ge=1)
    """Suggestions asked of the k-NN index per search node."""
    lm_model: str | None = None
    """Folder of the tactic language model (``prover.search.SearchBudget.lm_model``; ``prove --preset
    lm`` or ``learned`` sets it to ``~/.cache/agentic-prover/tactics/lm``, installed by ``prover-setup
    model tactics``): its proposals join the built-in search's candidates. None: off."""
    lm_k: int = Field(8, ge=1)
    """Beams of one tactic model call (its distinct tactics are proposed)."""
    lm_max_calls: int = Field(12, ge=0)
    """Goals the tactic model is asked about per search call (``SearchBudget.lm_max_calls``)."""


class ProverSettings(_Cfg):
    workers: int = 2
    """Lemmas proved in parallel (each holds one proof-assistant session while checking)."""
    informal: bool = True
    """Ask the model for an informal proof first (skipped when the user gave one)."""
    sketch_rounds: int = 3
    """Decompositions tried: after a round with failed lemmas, the sketch stage is asked again."""
    sketch_repairs: int = 3
    """Error-feedback retries for a sketch that does not compile."""
    agent_turns: int = 12
    """Model turns per lemma agent."""
    split_depth: int = 2
    """How deep a lemma agent may split lemmas into sub-lemmas."""
    automation_first: bool = True
    """Run the built-in portfolio on each lemma before starting its agent."""
    direct_search_first: bool = True
    """In agent mode, first try the built-in search on the whole theorem (cheap, no tokens)."""
    check_timeout_s: float = 30.0
    """Limit for one proof-attempt check."""
    python_timeout_s: float = 10.0
    cache_path: str | None = "~/.cache/agentic-prover/lemmas.sqlite"
    """Persistent lemma cache (sqlite); None disables it."""
    verify_timeout_s: float = 300.0
    allowed_requires: tuple[str, ...] = ("Coq.Lia", "Coq.Lra", "Coq.Psatz")
    """Rocq: standard-library modules a candidate may ``Require`` among its helpers (passed to
    the soundness verdict as ``allowed_requires``). Lemma checks run with them loaded, so the
    decision procedures ``lia``/``nia``/``lra``/``nra``/``psatz`` are available even when the
    problem imports only ``Reals`` or ``Arith``. Empty: the problem's own imports only."""
    record_conversations: bool = False
    """Write each lemma agent's full conversation to the trace (``conversation`` events), e.g.
    for training data. Off by default: traces grow by the whole transcript."""


class InformalSettings(_Cfg):
    """The natural-language loop (``prover.informal``): candidates -> verify (with sandbox checks)
    -> revise -> select. Used only when a model is configured and ``prover.informal`` is on."""

    n: int = Field(4, ge=1, le=64)
    """Candidate proofs per problem (one request with the API's ``n`` where the client supports it)."""
    revision_rounds: int = Field(2, ge=0, le=10)
    """Rounds in which candidates judged below ``accept_score`` are revised with their judgement."""
    budget_share: float = Field(0.3, gt=0.0, le=1.0)
    """Most of the run's wall budget (and of its token budget) the whole loop may use; once it is
    spent the loop selects from what it has, so the sketch and the agents keep their time."""
    verify: bool = True
    """Grade candidates with the rubric; off: the first candidate goes to the sketch unjudged."""
    grade_user: bool = True
    """Grade a user's ``--informal`` proof with the same verify step (it is never rewritten)."""
    accept_score: float = Field(0.9, ge=0.0, le=1.0)
    """A candidate judged at least this, with no refuted sandbox check, is not revised."""
    refuted_cap: float = Field(0.2, ge=0.0, le=1.0)
    """A judgement whose flagged claim the sandbox refuted scores at most this."""
    max_checks: int = Field(4, ge=0, le=32)
    """Sandbox checks run per judgement (the flags' ``check_code``, in order)."""
    max_flags: int = Field(8, ge=0, le=64)
    """Most flags a judgement may list (a bound in the JSON schema, and asked for in the prompt)."""
    reasoning_chars: int | None = Field(4000, ge=100)
    """Bound on the judgement's reasoning (characters; flags' fields get proportional bounds), in
    the schema and the prompt, so that a constrained decoder closes the JSON before ``max_tokens``
    cuts it (a cut-off judgement scores 0). None: unbounded (a strong model with a large
    ``max_tokens``)."""
    temperature: float = Field(0.9, ge=0.0, le=2.0)
    """Sampling temperature of candidates and revisions (diversity)."""
    verify_temperature: float = Field(0.2, ge=0.0, le=2.0)
    structured_output: bool = True
    """Ask for the judgement as a JSON-schema ``response_format``; dropped for the rest of the loop
    when the server rejects it."""
    parallel: int = Field(4, ge=1, le=64)
    """Judgements and revisions in flight at once."""
    rotate: bool = True
    """After a failed sketch round, the next round sketches the next-ranked candidate (if any
    scored above 0) instead of the same proof."""


class ProjectSettings(_Cfg):
    """The Rocq project a file is proved in (besides its ``_CoqProject`` or dune theory)."""

    flags: list[str] = Field(default_factory=list)
    """coqc-style load-path flags added after the project's own, e.g. ``["-Q", "theories", "MyProj"]``;
    relative folders are taken from the working folder."""
    hole_timeout_s: float | None = Field(None, gt=0)
    """Wall-clock seconds for one hole of a project file; None: the whole budget (``budget.wall_s``)."""


class ProverConfig(_Cfg):
    model: ModelConfig = ModelConfig()
    sampling: SamplingConfig = SamplingConfig()
    budget: BudgetConfig = BudgetConfig()
    search: SearchSettings = SearchSettings()
    prover: ProverSettings = ProverSettings()
    informal: InformalSettings = InformalSettings()
    project: ProjectSettings = ProjectSettings()

    @property
    def uses_model(self) -> bool:
        return self.model.type != "none"

    def with_overrides(self, **dotted: Any) -> ProverConfig:
        """Return a copy with ``section__field=value`` (or ``"section.field"``) overrides; None values are skipped."""
        data = self.model_dump()
        for key, value in dotted.items():
            if value is None:
                continue
            section, _, name = key.replace("__", ".").partition(".")
            if section not in data or not name or name not in data[section]:
                raise ConfigError(f"unknown config field {key!r}")
            data[section][name] = value
        return ProverConfig.model_validate(data)

    def summary(self) -> dict[str, Any]:
        """What is recorded in the trace: model, endpoint, sampling, budgets (never a key)."""
        return self.model_dump(mode="json")


class ConfigError(ValueError):
    """A config file or override is invalid; the message names the problem."""


def load_config(path: str | os.PathLike | None = None, *, env: dict[str, str] | None = None, **overrides: Any) -> ProverConfig:
    """Defaults < TOML file at ``path`` < environment < ``overrides`` (``section__field=value``)."""
    data: dict[str, Any] = {}
    if path is not None:
        p = Path(path)
        try:
            data = tomllib.loads(p.read_text(encoding="utf-8"))
        except FileNotFoundError as e:
            raise ConfigError(f"config file not found: {p}") from e
        except tomllib.TOMLDecodeError as e:
            raise ConfigError(f"config file {p} is not valid TOML: {e}") from e
    try:
        cfg = ProverConfig.model_validate(data)
    except Exception as e:  # pydantic.ValidationError
        raise ConfigError(f"invalid config {path}: {_short(e)}") from e
    environ: Mapping[str, str] = os.environ if env is None else env
    env_over: dict[str, Any] = {
        "model__type": environ.get("PROVER_BACKEND") or None,
        "model__model": environ.get("PROVER_MODEL") or None,
        "model__endpoint": environ.get("PROVER_ENDPOINT") or None,
        "prover__workers": environ.get("PROVER_WORKERS") or None,
        "budget__wall_s": environ.get("PROVER_TIMEOUT") or None,
    }
    try:
        cfg = cfg.with_overrides(**env_over).with_overrides(**overrides)
    except ConfigError:
        raise
    except Exception as e:
        raise ConfigError(f"invalid override: {_short(e)}") from e
    touched = any(k in ("model__model", "model__endpoint") and v for k, v in {**env_over, **overrides}.items())
    if cfg.model.type == "none" and touched and not (overrides.get("model__type") or env_over.get("model__type")):
        cfg = cfg.with_overrides(model__type="openai")
    return cfg


def _short(e: Exception) -> str:
    return " ".join(str(e).split())[:300]
