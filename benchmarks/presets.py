"""``prover-bench run --preset NAME``: named (attempt function, config) pairs, a small registry.

A preset fixes what runs on each problem and with which settings, so that a figure is one
command away: ``prover-bench run minif2f-rocq-valid --preset default --db D``. The config dict
is hashed into the run key like any ``--config``; the attempt function receives it.

- ``default``: the built-in search (``prover.search.prove_goal``, default tactic table) with the
  settings ``benchmarks/minif2f_default.py`` used for the README's miniF2F figures: 5 s of
  coqtop CPU per problem (wall time capped at 4x), at most 40 expansions, 300 attempts,
  depth 5, closers' timeouts unscaled, a fresh ``coqtop -w -all`` session per problem with a
  30 s request timeout, and a hard limit of ``max(60, 10 x seconds)`` wall seconds that
  abandons a problem whose Python code never returns.
- ``baseline``: the fixed 16-tactic portfolio (``prover.search.baseline_table``) tried once at
  the root, 100 s budget, 5 s per tactic (the comparison of the README).

- ``hammer``: CoqHammer's ``hammer`` alone after ``intros`` (``SearchBudget.hammer = "only"``),
  20 s per call, in warm sessions a worker keeps across problems (``session.warm``: the plugin's
  feature extraction, 15-60 s on a loaded machine, is paid once per header and session); the
  kept proof is the replayed reconstruction, checked like every other. CPU: the pooled sessions'
  process-tree CPU (ATPs included) during the attempt, plus the finished processes'.

- ``knn``: ``default`` plus the nearest-neighbour tactic index (``SearchBudget.knn_index``,
  ``prover/search/knn.py``) at ``~/.cache/agentic-prover/tactics/knn`` or ``$PROVER_KNN_INDEX``,
  read when the attempt runs (the run key does not hold a machine's path). A missing index is an
  ``error`` result naming ``prover-setup model tactics``. CPU: the sessions' as for ``default``,
  plus the seconds spent asking the index.

- ``lm``: ``default`` plus the tactic language model (``SearchBudget.lm_model``,
  ``prover/search/lm_source.py``) at ``~/.cache/agentic-prover/tactics/lm`` or
  ``$PROVER_TACTIC_MODEL``, read when the attempt runs; a missing model is an ``error`` result
  naming ``prover-setup model tactics``. CPU: the sessions' plus the model's seconds (wall time of
  its calls, on one torch thread by default). Loading the model (once per worker process) is not
  counted.
- ``learned``: ``default`` plus both sources (the index's suggestions first), each read and
  counted as above.

Other helpers register more with ``register(Preset(...))``.
Rocq only: a preset refuses a Lean problem with an ``error`` result naming the reason.

Every claimed proof counts only after the soundness verdict on the benchmark's own statement
(``benchmarks.prover_attempt.recheck``), as for every other attempt function.
"""

from __future__ import annotations

import contextlib
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from lean_tools.rocq.project import activate, load_path_args
from prover.presets import (
    KNN_MISSING,
    LM_MISSING,
    default_knn_index,
    default_tactic_model,
    knn_index_installed,
    tactic_model_installed,
)

from .problem import AttemptRequest, AttemptResult, BenchProblem

if TYPE_CHECKING:
    from prover.search import SearchResult


@dataclass(frozen=True)
class Preset:
    """A named attempt function with its config."""

    name: str
    attempt_fn: str
    """``module:function`` (see ``benchmarks.runner.AttemptFn``)."""
    config: dict = field(default_factory=dict)
    description: str = ""


PRESETS: dict[str, Preset] = {}


def register(preset: Preset) -> Preset:
    """Add a preset; a second one of the same name is refused."""
    if preset.name in PRESETS:
        raise ValueError(f"preset {preset.name!r} is already registered")
    PRESETS[preset.name] = preset
    return preset


def get_preset(name: str) -> Preset:
    """The preset of that name; ``KeyError`` naming the known ones otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        raise KeyError(f"unknown preset {name!r} (known: {', '.join(sorted(PRESETS))})") from None


SEARCH_ATTEMPT = "benchmarks.presets:search_attempt"

register(Preset(
    name="default",
    attempt_fn=SEARCH_ATTEMPT,
    config={"preset": "default", "table": "default",
            "budget": {"seconds": 5.0, "max_expansions": 40, "max_attempts": 300, "max_depth": 5, "clock": "cpu",
                       "root_timeout_scale": 1.0},
            "session": {"default_timeout": 30.0, "extra_args": ["-w", "-all"]}},
    description="built-in search as benchmarks/minif2f_default.py ran it (5 s coqtop CPU per problem)",
))
register(Preset(
    name="baseline",
    attempt_fn=SEARCH_ATTEMPT,
    config={"preset": "baseline", "table": "baseline",
            "budget": {"seconds": 100.0, "max_expansions": 1, "inner_timeout": 5.0},
            "session": {"default_timeout": 30.0, "extra_args": ["-w", "-all"]}},
    description="the fixed 16-tactic baseline portfolio, once at the root",
))

register(Preset(
    name="hammer",
    attempt_fn=SEARCH_ATTEMPT,
    config={"preset": "hammer", "table": "default",
            "budget": {"seconds": 25.0, "hammer": "only", "hammer_seconds": 20.0, "clock": "wall"},
            "session": {"default_timeout": 40.0, "extra_args": ["-w", "-all"], "warm": True}},
    description="CoqHammer's hammer alone after intros (20 s per call in warm sessions kept across problems, "
                "its reconstruction replayed and kept)",
))
register(Preset(
    name="knn",
    attempt_fn=SEARCH_ATTEMPT,
    config={**PRESETS["default"].config, "preset": "knn", "knn": "installed"},
    description="the default search plus the k-NN tactic index's suggestions (prover-setup model tactics)",
))
register(Preset(
    name="lm",
    attempt_fn=SEARCH_ATTEMPT,
    config={**PRESETS["default"].config, "preset": "lm", "lm": "installed"},
    description="the default search plus the tactic language model's proposals (prover-setup model tactics)",
))
register(Preset(
    name="learned",
    attempt_fn=SEARCH_ATTEMPT,
    config={**PRESETS["default"].config, "preset": "learned", "knn": "installed", "lm": "installed"},
    description="the default search plus the k-NN index's suggestions and the tactic model's proposals",
))


def with_budget(preset: Preset, seconds: float) -> dict:
    """The preset's config with its budget set to ``seconds`` (``--timeout``): a preset chooses
    what runs, the command how long (``set_budget``)."""
    return set_budget(preset.config, seconds)


def set_budget(config: dict, seconds: float) -> dict:
    """A preset config (``config``, possibly with ``identify_sources``' keys) with its budget set
    to ``seconds``. The search's ``seconds`` keep the preset's clock (coqtop CPU for ``default``,
    wall time for ``baseline`` and ``hammer``); ``hammer``'s own call gets all but 5 s of it."""
    config = {**config, "budget": {**config.get("budget", {}), "seconds": float(seconds)}}
    if config["budget"].get("hammer") == "only":
        config["budget"]["hammer_seconds"] = max(5.0, float(seconds) - 5.0)
    return config


class _HardLimit(Exception):
    pass


def hard_limit_s(config: dict) -> int:
    """Wall seconds after which one problem is abandoned: ``config["hard_limit_s"]`` if given,
    else ``max(60, 10 x budget seconds)``."""
    if "hard_limit_s" in config:
        return max(1, int(config["hard_limit_s"]))
    return int(max(60, 10 * float(config.get("budget", {}).get("seconds", 5.0))))


RECHECK_RESERVE_S = 10.0
"""Wall seconds an attempt keeps after its search for the re-check of a proof found."""


def attempt_limit(config: dict, timeout_s: float) -> int:
    """Wall seconds after which a worker abandons its attempt itself (a clean ``timeout``, the
    worker and its warm sessions and model kept): ``hard_limit_s``, but 5 s before the runner
    would kill the worker (``runner.hard_limit`` of the run's ``timeout_s``). The search stops
    ``RECHECK_RESERVE_S`` before it, counted from the attempt's start (``SearchBudget.deadline``:
    loading the problem's file is inside it), so that on a busy machine a search stops and
    reports instead of being abandoned."""
    from .runner import hard_limit

    return max(1, min(hard_limit_s(config), int(hard_limit(timeout_s)) - 5))


def split_statement(text: str) -> tuple[str, str]:
    """(session header, statement sentence) of a Rocq problem file."""
    from lean_tools.parsing import parse_source

    src = parse_source(text, "rocq")
    stmt = text[src.decl_start : src.statement_end].rstrip()
    return src.header + src.preamble, stmt if stmt.endswith(".") else stmt + "."


def candidate_file(problem_text: str, proof: str, *, requires: bool = True) -> str:
    """The problem file with ``proof`` as its body; the proof's ``Require`` sentences go just
    before the theorem (the place the soundness verdict allows new text), or are dropped
    (``requires=False``: a lemma re-proved in its own file, whose proof may load nothing new)."""
    from lean_tools.parsing import parse_source
    from prover.search import hoist_requires

    found, rest = hoist_requires(proof)
    return parse_source(problem_text, "rocq").render(rest, helpers=found if requires else "")


def in_file_checker(problem: BenchProblem, header: str):
    """For a library lemma re-proved in its own file (a problem with a ``reference``): the
    search's fresh checker compiles the file as it is, with the sections and modules open at the
    lemma closed, and without the search's own ``Require``s (``prover.search.context_checker``).
    None for every other problem (the search's default checker)."""
    if not problem.reference:
        return None
    from lean_tools.assistant import assistant
    from lean_tools.rocq.holes import closers, find_holes
    from prover.search.context_checker import InContextChecker

    holes = [h for h in find_holes(problem.text) if h.kind == "admitted"]
    scopes = holes[-1].scopes if holes else ()
    return InContextChecker(assistant("rocq").checker(), header.rstrip(), closers(scopes))


def search_attempt(problem: BenchProblem, request: AttemptRequest) -> AttemptResult:
    """One built-in search on ``problem`` with the preset config in ``request.config``.

    Runs in a benchmark worker's main thread (the hard limit is a ``SIGALRM``). Costs:
    ``checker_cpu_s`` = CPU of the coqtop sessions and ``coqc`` re-checks of the search, each
    process measured on its own (``lean_tools.sandbox.finished_cpu_seconds``), plus the k-NN
    index's and the tactic model's seconds, which are also recorded apart (``knn_s``,
    ``model_s``, with the model's ``tokens``) for every attempt whose search returned; the final
    soundness verdict is not counted (it is the benchmark's, not the prover's).
    """
    if problem.language != "rocq":
        return AttemptResult(outcome="error", reason=f"the search presets run Rocq problems only, not {problem.language}")
    limit = attempt_limit(request.config, request.timeout_s)
    _preload(request.config)

    def on_alarm(signum, frame):
        raise _HardLimit

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(limit)
    t0 = time.monotonic()
    try:
        with activate(problem.flags) if problem.flags else contextlib.nullcontext():
            return _search(problem, request.config, t0, wall_cap=max(1.0, limit - RECHECK_RESERVE_S))
    except _HardLimit:
        return AttemptResult(outcome="timeout", reason=f"hard limit: abandoned after {limit} s",
                             wall_s=time.monotonic() - t0)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _digest(parts: list) -> str:
    """First 16 hex digits of the SHA-256 of ``parts`` (bytes, or files read whole)."""
    import hashlib

    h = hashlib.sha256()
    for part in parts:
        h.update(part if isinstance(part, bytes) else part.read_bytes())
    return h.hexdigest()[:16]


def _model_parts(folder: Path) -> list:
    """What identifies an installed tactic model: its card without the base's location, the
    adapter's files, and the base model's ``config.json`` and ``prover-model.json`` (its name,
    source package and version; the base's weights are not read: 0.5 GB per run start)."""
    import json

    from prover.search.lm_card import read_card
    from prover.search.lm_source import LmUnavailable, base_folder

    card = read_card(folder)
    raw = json.loads((folder / "tactic-model.json").read_text(encoding="utf-8"))
    raw.pop("base", None)
    parts: list = [json.dumps(raw, sort_keys=True).encode()]
    adapter = card.adapter_path(folder)
    if adapter is not None and adapter.is_dir():
        parts += sorted(p for p in adapter.rglob("*") if p.is_file())
    with contextlib.suppress(LmUnavailable, OSError, ValueError):  # a base not found: the card alone
        base = base_folder(card, folder)
        parts += [f for f in (base / "config.json", base / "prover-model.json") if f.is_file()]
    return parts


def identify_sources(config: dict) -> dict:
    """``config`` with the identity of the installed k-NN index (``knn_id``: its files) and
    tactic model (``lm_id``: ``_model_parts``) where the preset uses them, so that the run key
    (its config hash) tells two indexes or two trained models apart. Paths are left out: the
    same index and model installed in another folder give the same key. A source not installed,
    or whose card cannot be read, is left out (the attempts report it)."""
    out = dict(config)
    if config.get("knn") == "installed" and knn_index_installed(folder := default_knn_index()):
        out["knn_id"] = _digest([folder / "index.npz", folder / "entries.jsonl"])
    if config.get("lm") == "installed" and tactic_model_installed(model := default_tactic_model()):
        with contextlib.suppress(OSError, ValueError):
            out["lm_id"] = _digest(_model_parts(model))
    return out


def _preload(config: dict) -> None:
    """Load the installed k-NN index and tactic model into this worker before the problem's clock
    and hard limit start: loading is paid once per worker process and reported apart, never
    charged to the first problem a worker happens to draw. A source that cannot load is left to
    the attempt, which reports it as its ``error``."""
    budget_cfg: dict = {}
    if _installed_sources(config, budget_cfg) is not None:
        return
    from prover.search.knn import KnnUnavailable, load_index
    from prover.search.lm_source import LmUnavailable, load_model

    with contextlib.suppress(KnnUnavailable, LmUnavailable):
        if "knn_index" in budget_cfg:
            load_index(budget_cfg["knn_index"])
        if "lm_model" in budget_cfg:
            load_model(budget_cfg["lm_model"])


search_attempt.warmup = _preload  # type: ignore[attr-defined]  # a local worker loads them once, before its first attempt

_WARM: dict = {}


def _warm_pool(timeout: float, extra: tuple):
    """This worker process's pool of warm sessions (``session.warm``), kept across problems:
    CoqHammer extracts the library's features once per session and header, not per problem.
    Returns the pool and the list of the sessions it made (for their CPU readings)."""
    key = (timeout, extra, load_path_args())  # a problem's load path is fixed when its sessions start
    if key not in _WARM:
        from lean_tools.pool import SessionPool
        from lean_tools.rocq.session import RocqSession

        made: list = []

        def factory(language, header):
            s = RocqSession(header, default_timeout=timeout, extra_args=extra)
            made.append(s)
            return s

        _WARM[key] = (SessionPool(factory, max_sessions=2), made)
    return _WARM[key]


def _installed_sources(config: dict, budget_cfg: dict) -> str | None:
    """Set the k-NN index's and the tactic model's folders in ``budget_cfg`` where the preset
    asks for the installed ones; the reason when one is not installed, else None."""
    if config.get("knn") == "installed":
        folder = default_knn_index()
        if not knn_index_installed(folder):
            return f"{KNN_MISSING} (looked in {folder})"
        budget_cfg["knn_index"] = str(folder)
    if config.get("lm") == "installed":
        model = default_tactic_model()
        if not tactic_model_installed(model):
            return f"{LM_MISSING} (looked in {model})"
        budget_cfg["lm_model"] = str(model)
    return None


def _search(problem: BenchProblem, config: dict, t0: float, wall_cap: float | None = None) -> AttemptResult:
    from lean_tools.rocq.session import RocqSession
    from lean_tools.sandbox import finished_cpu_seconds
    from prover.search import SearchBudget, baseline_table, prove_goal

    from .prover_attempt import RECHECK_REJECTED, recheck

    try:
        header, stmt = split_statement(problem.text)
    except ValueError as e:
        return AttemptResult(outcome="error", reason=f"parse error: {e}")
    sess = dict(config.get("session", {}))
    timeout = float(sess.get("default_timeout", 30.0))
    extra = tuple(sess.get("extra_args", ()))
    budget_cfg = dict(config.get("budget", {}))
    missing = _installed_sources(config, budget_cfg)
    if missing is not None:
        return AttemptResult(outcome="error", reason=missing)
    checker = in_file_checker(problem, header)
    if checker is not None:
        budget_cfg["own_imports"] = True
    budget = SearchBudget(**budget_cfg)
    if wall_cap is not None:
        budget = budget.model_copy(update={"deadline": t0 + wall_cap})
    table = baseline_table() if config.get("table") == "baseline" else None
    cpu0 = finished_cpu_seconds()
    if sess.get("warm"):
        pool, live = _warm_pool(timeout, extra)
        live0 = sum(s.process_cpu_seconds for s in live if s.alive())
        res = prove_goal(pool, header, stmt, "rocq", budget, table=table, checker=checker)
        cpu = finished_cpu_seconds() - cpu0 + sum(s.process_cpu_seconds for s in live if s.alive()) - live0
    else:
        res = prove_goal(lambda h: RocqSession(h, default_timeout=timeout, extra_args=extra), header, stmt, "rocq",
                         budget, table=table, checker=checker)
        cpu = finished_cpu_seconds() - cpu0
    costs = _costs(res, cpu + res.knn_seconds + res.lm_cpu_seconds, time.monotonic() - t0)
    if not res.proved:
        reason = res.reason or "no proof found"
        infra = reason.startswith(("SessionCrashed", "SessionOutOfMemory", "NotInstalled"))
        return AttemptResult(outcome="error" if infra else "failed", reason=reason, **costs)
    text = candidate_file(problem.text, res.proof or "", requires=checker is None)
    ok, why = recheck(problem, text, timeout=60.0)
    if not ok:
        return AttemptResult(outcome="failed", reason=f"{RECHECK_REJECTED}: {why}", **costs)
    return AttemptResult(outcome="proved", proof=text, reason=", ".join(res.tags) or why, **costs)


class _Costs(TypedDict):
    checker_cpu_s: float
    wall_s: float
    tokens: int
    model_s: float
    knn_s: float


def _costs(res: SearchResult, cpu: float, wall: float) -> _Costs:
    """The ``AttemptResult`` cost fields of a search's result, the same whatever its outcome:
    ``cpu`` (sessions, checks, and the two sources' seconds), ``wall``, the model's tokens, and
    the model's and the index's own seconds (0 for a source the preset does not use)."""
    return _Costs(checker_cpu_s=cpu, wall_s=wall, tokens=res.lm_tokens, model_s=res.lm_seconds, knn_s=res.knn_seconds)
