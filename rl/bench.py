"""The trained policy as a benchmark attempt function, and the curriculum as a benchmark folder.

Two pieces connect ``rl`` to the benchmark runner (``benchmarks/``), which owns sweeps,
results databases and reports:

- ``python -m rl.bench export --out DIR [--split heldout] [--n N] [--seed S]`` writes the
  curriculum's problems (``rl.curriculum.generate``, the same deterministic stream a run with
  that seed draws from) as standalone ``.v`` files: header, ``Theorem name stmt.``,
  ``Proof.``, ``Admitted.``. ``prover-bench run|sweep DIR`` takes the folder as a suite.
  With the defaults (all six families, difficulty 1-3, seed 0) the first N held-out problems
  are the first N of a default run's held-out set.
- ``rl.bench:policy_attempt`` is an ``AttemptFn`` (``(BenchProblem, AttemptRequest) ->
  AttemptResult``) that proves with a policy trained by ``prover-train``; ``rl.bench:lm_attempt``
  is the same for a real-LM run (``model.type = "lm"``, sampled by vLLM; see its docstring).

``policy_attempt`` contract:
- Policy: ``PROVER_RL_CHECKPOINT`` names a run directory or its ``checkpoint/state.pt``; the
  run's ``config.json`` (next to ``checkpoint/``) rebuilds the model. With
  ``PROVER_RL_POLICY=init`` the model is the run's random initialisation (same seed as its step
  0) instead of the checkpoint, for an untrained baseline. ``PROVER_RL_TEMPERATURE`` (a
  number > 0) samples at that temperature instead of the run's ``sampler.temperature``.
  Loaded once per process and cached per (checkpoint, policy, temperature).
- Prompt: ``rl.tactic_env.render_prompt`` on the statement parsed by ``lean_tools.parsing.parse_source``
  (the form the policy was trained on). Rocq only; a Lean problem is a ``failed`` result.
- Budget: ``request.timeout_s`` is a wall-clock budget in seconds. The attempt samples batches
  of ``PROVER_RL_BATCH`` (default 8) completions, seeded by ``(request.seed, round)``, and
  checks every *new distinct* script in order until one is accepted or the budget is spent. A
  check started before the deadline may finish after it (the runner's grace covers it). If
  ``STALL_ROUNDS`` rounds in a row bring no new script, the policy is taken as exhausted and
  the attempt stops early (reason says so).
- Checking a candidate: ``rl.verifier.static_screen``; then a warm ``coqtop`` prescreen (one
  ``RocqSession`` per header per process; a failure there rejects, a pass is never trusted;
  a broken session falls through); then the **full verdict**
  ``lean_tools.soundness.verify(problem.text, candidate, "rocq", theorem=...)`` on the
  benchmark's own text. Only that verdict produces ``outcome="proved"``.
- Costs: ``tokens`` = policy tokens generated (actions plus end tokens, every sampled
  completion, duplicates included); ``checker_cpu_s`` = CPU the warm sessions used during this
  attempt (their startup included when it happened here) plus each full verdict's
  ``cpu_seconds``.
- Run key: both functions declare an ``identity`` (run directory, policy, checkpoint size and
  time, temperature, sampler, batch), which the benchmark runner folds into the run's config
  hash, so a trained and an untrained sweep into one database are two runs, not one resumed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lean_tools.rocq.session import RocqSession

ENV_CHECKPOINT = "PROVER_RL_CHECKPOINT"
ENV_POLICY = "PROVER_RL_POLICY"
ENV_BATCH = "PROVER_RL_BATCH"
ENV_TEMPERATURE = "PROVER_RL_TEMPERATURE"
ENV_SAMPLER = "PROVER_RL_SAMPLER"
STALL_ROUNDS = 20
VERDICT_TIMEOUT_S = 60.0
DEFAULT_FAMILIES = ("eval_nat", "lin_nat", "lin_z", "ring_q", "taut", "conj")


class PolicyLoadError(RuntimeError):
    """The policy named by the environment cannot be loaded (missing path, config, checkpoint)."""


# -- export ----------------------------------------------------------------------------------
def export(out: str | Path, *, split: str = "heldout", n: int = 30, seed: int = 0,
           families: tuple[str, ...] = DEFAULT_FAMILIES, max_difficulty: int = 3) -> list[Path]:
    """Write the first ``n`` problems of ``split`` as ``<name>.v`` files under ``out``; returns the paths."""
    from .curriculum import generate

    if split not in ("heldout", "train"):
        raise ValueError(f"split must be 'heldout' or 'train', not {split!r}")
    if n < 1:
        raise ValueError("n must be at least 1")
    train, held = generate(families, max_difficulty, n if split == "train" else 0,
                           n if split == "heldout" else 0, seed)
    problems = held if split == "heldout" else train
    d = Path(out)
    d.mkdir(parents=True, exist_ok=True)
    paths = []
    for p in problems:
        path = d / f"{p.name}.v"
        path.write_text(p.text, encoding="utf-8")
        paths.append(path)
    return paths


# -- policy ----------------------------------------------------------------------------------
_POLICIES: dict[tuple, object] = {}
_SESSIONS: dict[str, RocqSession] = {}


def _run_dir(ref: str) -> tuple[Path, Path]:
    """(run directory holding config.json, checkpoint file) for a run dir or a state.pt path."""
    p = Path(ref)
    if p.is_dir():
        return p, p / "checkpoint" / "state.pt"
    if p.is_file():
        for run in (p.parent, p.parent.parent):
            if (run / "config.json").is_file():
                return run, p
        raise PolicyLoadError(f"no config.json next to checkpoint {p}")
    raise PolicyLoadError(f"{ENV_CHECKPOINT}={ref!r}: no such file or directory")


def temperature_from_env() -> float | None:
    """``PROVER_RL_TEMPERATURE`` as a number > 0, or None when unset; PolicyLoadError when invalid."""
    raw = os.environ.get(ENV_TEMPERATURE, "").strip()
    if not raw:
        return None
    try:
        t = float(raw)
    except ValueError:
        t = float("nan")
    if not t > 0:
        raise PolicyLoadError(f"{ENV_TEMPERATURE} must be a number > 0, not {raw!r}")
    return t


def load_policy(ref: str, mode: str = "trained", temperature: float | None = None):
    """A ``TorchSampler`` over the run's model, sampling at ``temperature`` (default: the run's
    ``sampler.temperature``); cached per process by (ref, mode, temperature)."""
    key = (str(ref), mode, temperature)
    if key in _POLICIES:
        return _POLICIES[key]
    if mode not in ("trained", "init"):
        raise PolicyLoadError(f"{ENV_POLICY} must be 'trained' or 'init', not {mode!r}")
    if temperature is not None and not temperature > 0:
        raise PolicyLoadError(f"temperature must be > 0, not {temperature!r}")
    import torch

    from .action_samplers import TorchSampler
    from .config import from_dict
    from .policy import build_model

    run, ckpt = _run_dir(ref)
    if not (run / "config.json").is_file():
        raise PolicyLoadError(f"no config.json in {run}")
    cfg = from_dict(json.loads((run / "config.json").read_text()))
    torch.set_num_threads(max(1, cfg.trainer.torch_threads or 1))
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(cfg.trainer.seed)  # the same initialisation as the run's step 0
        model = build_model(cfg.model, cfg.sampler.max_new_tokens)
    if mode == "trained":
        if not ckpt.is_file():
            raise PolicyLoadError(f"no checkpoint at {ckpt}")
        state = torch.load(ckpt, map_location="cpu", weights_only=False)
        model.load_state_dict(state["model"])
    model.eval()
    sampler = TorchSampler(model, max_prompt_chars=cfg.model.max_prompt_chars,
                           max_new_tokens=cfg.sampler.max_new_tokens,
                           temperature=cfg.sampler.temperature if temperature is None else temperature,
                           keep=1, seed=cfg.trainer.seed, device="cpu", end_bias=cfg.model.end_bias)
    sampler.push(model.state_dict(), 0)
    _POLICIES[key] = sampler
    return sampler


@dataclass(frozen=True)
class Prescreen:
    """What the warm-session prescreen said about one candidate."""

    passed: bool | None
    """None when the session could not answer (then the full verdict decides)."""
    error: str
    """The first error, or "" when it passed."""
    cpu_s: float
    """Session CPU seconds the check used."""


def _prescreen(header: str, code: str, timeout: float) -> Prescreen:
    """Check ``code`` in a warm ``coqtop`` over ``header`` (one session per header, per process)."""
    from lean_tools.rocq.session import RocqSession

    s = _SESSIONS.get(header)
    cpu0 = 0.0
    try:
        if s is None or not s.alive():
            s = RocqSession(header, default_timeout=timeout)
            _SESSIONS[header] = s
            s.start()
        cpu0 = s.cpu_seconds
        out = s.run_command(code, timeout=timeout)
    except Exception as err:  # noqa: BLE001 - a broken session never decides; the full verdict does
        _SESSIONS.pop(header, None)
        used = getattr(s, "cpu_seconds", 0.0) - cpu0 if s is not None else 0.0
        return Prescreen(None, f"{type(err).__name__}: {err}", max(0.0, used))
    used = max(0.0, s.cpu_seconds - cpu0)
    if out.complete:
        return Prescreen(True, "", used)
    return Prescreen(False, out.errors[0].text if out.errors else "proof incomplete", used)


def _round_seed(seed: int, rnd: int) -> int:
    return (seed * 1_000_003 + rnd * 7919 + 17) % (2**62)


def _parse_bench(problem):
    """(source, curriculum-style Problem) of a benchmark problem, for the policy's prompt."""
    from lean_tools.parsing import parse_source

    from .records import Problem

    src = parse_source(problem.text, "rocq", theorem=problem.theorem)
    rp = Problem(id=problem.id, family="bench", difficulty=0, split="bench", header=src.header.strip(),
                 name=src.theorem_name, statement=src.statement, witness="")
    return src, rp


@dataclass(frozen=True)
class Round:
    """One round of candidate scripts drawn from a policy."""

    scripts: list[str]
    tokens: int
    """Policy tokens the round generated (the attempt's token cost)."""


def _search(problem, request, src, draw: Callable[[int], Round], t0: float):
    """Draw candidate scripts round by round (``draw(round) -> Round``) and check each
    new distinct one (static screen, warm prescreen, full verdict) until one is accepted, the
    budget is spent or ``STALL_ROUNDS`` rounds bring nothing new (module docstring)."""
    from benchmarks.problem import AttemptResult
    from lean_tools.soundness import verify

    from .verifier import static_screen

    deadline = t0 + request.timeout_s
    tokens, cpu, rnd, stall = 0, 0.0, 0, 0
    seen: set[str] = set()
    n_static = n_pre = n_full = 0
    last = ""
    while time.monotonic() < deadline:
        drawn = draw(rnd)
        rnd += 1
        tokens += drawn.tokens
        new = [s for s in dict.fromkeys(drawn.scripts) if s not in seen]
        stall = 0 if new else stall + 1
        if stall >= STALL_ROUNDS:
            last = f"policy exhausted: no new script in {STALL_ROUNDS} rounds; " + last
            break
        for script in new:
            if time.monotonic() >= deadline:
                break
            seen.add(script)
            why = static_screen(script) if script else "empty script"
            if why:
                n_static += 1
                last = why
                continue
            candidate = src.render(script)
            remaining = max(1.0, deadline - time.monotonic())
            pre = _prescreen(src.header, candidate[len(src.header):], timeout=min(30.0, remaining + 5.0))
            cpu += pre.cpu_s
            if pre.passed is False:
                n_pre += 1
                last = f"{script!r}: {pre.error}"
                continue
            v = verify(problem.text, candidate, "rocq", theorem=src.theorem_name, timeout=VERDICT_TIMEOUT_S)
            cpu += float(v.cpu_seconds)
            n_full += 1
            if v.accepted:
                return AttemptResult(outcome="proved", proof=candidate, reason=f"{v.reason} (script {script!r}, "
                                     f"{len(seen)} distinct candidates)", tokens=tokens, checker_cpu_s=cpu,
                                     wall_s=time.monotonic() - t0)
            last = f"{script!r}: {v.reason}"
    reason = (f"no accepted proof in {request.timeout_s:g}s: {len(seen)} distinct scripts from {rnd} rounds "
              f"({n_static} static, {n_pre} prescreen, {n_full} full-verdict rejections); last: {last}")
    return AttemptResult(outcome="failed", reason=reason[:2000], tokens=tokens, checker_cpu_s=cpu,
                         wall_s=time.monotonic() - t0)


def _checkpoint_ref() -> str:
    ref = os.environ.get(ENV_CHECKPOINT)
    if not ref:
        raise PolicyLoadError(f"set {ENV_CHECKPOINT} to a prover-train run directory or its checkpoint/state.pt")
    return ref


def policy_attempt(problem, request):
    """``AttemptFn``: sample and check policy proofs within ``request.timeout_s`` (see module docstring)."""
    from benchmarks.problem import AttemptResult

    from .policy import script_of
    from .tactic_env import render_prompt

    t0 = time.monotonic()
    if problem.language != "rocq":
        return AttemptResult(outcome="failed", reason="rl policy proves Rocq problems only",
                             wall_s=time.monotonic() - t0)
    sampler = load_policy(_checkpoint_ref(), os.environ.get(ENV_POLICY, "trained"), temperature_from_env())
    batch = max(1, int(os.environ.get(ENV_BATCH, "8")))
    src, rp = _parse_bench(problem)
    prompt = render_prompt(rp, [])

    def draw(rnd: int) -> Round:
        _, comps = sampler.sample([prompt] * batch, seed=_round_seed(request.seed, rnd))
        return Round([script_of(c.actions) for c in comps], sum(len(c.logprobs) for c in comps))

    return _search(problem, request, src, draw, t0)


# -- a real LM policy (model.type = "lm") ---------------------------------------------------------
def sampler_from_env() -> str | None:
    """``PROVER_RL_SAMPLER`` (``vllm`` or ``transformers``), or None when unset (then: the run's
    ``sampler.type``); PolicyLoadError when it is something else."""
    raw = os.environ.get(ENV_SAMPLER, "").strip()
    if raw and raw not in ("vllm", "transformers"):
        raise PolicyLoadError(f"{ENV_SAMPLER} must be 'vllm' or 'transformers', not {raw!r}")
    return raw or None


def load_lm_policy(ref: str, mode: str = "trained", temperature: float | None = None, sampler_kind: str | None = None):
    """(sampler, the run's ``model.reply_prefix``) for an LM run's policy (base weights plus the
    checkpoint's, LoRA merged), sampling at ``temperature`` (default: the run's); ``mode="init"``
    keeps the pretrained weights (the run's step 0: LoRA starts as a zero delta). Cached per
    process. ``sampler_kind``: ``"vllm"`` (an in-process vLLM engine given the merged weights by
    the same push as training; its start-up takes ~40 s here, which the runner's per-worker
    warm-up keeps out of every budget) or ``"transformers"`` (ready in seconds but ~20x slower
    per token here); default: the run's ``sampler.type``."""
    key = ("lm", str(ref), mode, temperature, sampler_kind)
    if key in _POLICIES:
        return _POLICIES[key]
    if mode not in ("trained", "init"):
        raise PolicyLoadError(f"{ENV_POLICY} must be 'trained' or 'init', not {mode!r}")
    import torch

    from .config import from_dict
    from .lm import LMPolicy, LoraSettings
    from .text_samplers import text_sampler

    run, ckpt = _run_dir(ref)
    if not (run / "config.json").is_file():
        raise PolicyLoadError(f"no config.json in {run}")
    cfg = from_dict(json.loads((run / "config.json").read_text()))
    if cfg.model.type != "lm":
        raise PolicyLoadError(f"{run} trained model.type = {cfg.model.type!r}; use rl.bench:policy_attempt")
    mc, sc = cfg.model, cfg.sampler
    policy = LMPolicy.load(mc.path or "smollm2", lora=LoraSettings(rank=mc.lora_rank, alpha=mc.lora_alpha,
                                                                  targets=tuple(mc.lora_targets)),
                           dtype=getattr(torch, mc.dtype))
    if mode == "trained":
        if not ckpt.is_file():
            raise PolicyLoadError(f"no checkpoint at {ckpt}")
        policy.load_state_dict(torch.load(ckpt, map_location="cpu", weights_only=False)["model"])
    policy.eval()
    torch.set_num_threads(max(1, cfg.trainer.torch_threads or 1))
    sampler = text_sampler(policy, sc.model_copy(update={"type": sampler_kind or sc.type}), seed=cfg.trainer.seed,
                           temperature=temperature, keep=1)
    sampler.push(dict(policy.hf_weights()), 0)
    for old in [k for k in _POLICIES if k[0] == "lm"]:  # one LM per process
        _POLICIES.pop(old)[0].close()  # type: ignore[index]
    _POLICIES[key] = (sampler, mc.reply_prefix)
    return sampler, mc.reply_prefix


def _lm_policy_from_env():
    """``load_lm_policy`` for the policy the environment names (checkpoint, policy, temperature, sampler)."""
    return load_lm_policy(_checkpoint_ref(), os.environ.get(ENV_POLICY, "trained"), temperature_from_env(),
                          sampler_from_env())


def lm_attempt(problem, request):
    """``AttemptFn`` for a real-LM run (``model.type = "lm"``): like ``policy_attempt``, each round
    samples ``PROVER_RL_BATCH`` (default 4) replies to the run's compact prompt (plus its
    ``model.reply_prefix``) as one batch (``sample_texts`` of the sampler ``PROVER_RL_SAMPLER`` names,
    default the run's own: vLLM or transformers)
    (seeded by attempt seed and round); a reply's script is what ``rl.lm_agent.proof_of`` reads
    (its ``check`` call, else its fenced block). Single-turn: no checker feedback between rounds."""
    from benchmarks.problem import AttemptResult
    from prover.llm.base import parse_text_tool_calls

    from .lm_agent import proof_of, render_compact

    if problem.language != "rocq":
        return AttemptResult(outcome="failed", reason="rl policy proves Rocq problems only")
    sampler, prefix = _lm_policy_from_env()
    t0 = time.monotonic()  # the budget buys search, not the one-off model load of a worker's first attempt
    batch = max(1, int(os.environ.get(ENV_BATCH, "4")))
    src, rp = _parse_bench(problem)
    prompt = sampler.policy.render(render_compact(rp, ())) + prefix

    def draw(rnd: int) -> Round:
        seeds = [_round_seed(request.seed, rnd) * 31 + i for i in range(batch)]
        _, comps = sampler.sample_texts(prompt, seeds)
        scripts = []
        for c in comps:
            text = prefix + sampler.policy.decode(c.token_ids)
            scripts.append(proof_of(text, parse_text_tool_calls(text)[1]))
        return Round(scripts, sum(len(c.token_ids) for c in comps))

    return _search(problem, request, src, draw, t0)


def _lm_warmup() -> None:
    """Load the policy ``lm_attempt`` will use (the runner calls this once per worker, outside any
    attempt's budget and hard limit; see ``benchmarks.runner``)."""
    sampler, prefix = _lm_policy_from_env()
    sampler.sample_texts(sampler.policy.render([{"role": "user", "content": "1 + 1 = 2"}]) + prefix, [0])  # first call compiles


def _identity(default_batch: int) -> dict:
    """What the policy attempt functions read from the environment, for the run's key (see
    ``benchmarks.attempt_contract.attempt_identity``): the run directory, the policy, its checkpoint's
    size and modification time (a retrained checkpoint is a new run), temperature, sampler and
    batch. PolicyLoadError when the environment names no usable run."""
    run, ckpt = _run_dir(_checkpoint_ref())
    mode = os.environ.get(ENV_POLICY, "trained")
    out: dict = {"run": str(run.resolve()), "policy": mode, "temperature": temperature_from_env(),
                 "sampler": sampler_from_env(), "batch": os.environ.get(ENV_BATCH, str(default_batch)).strip()}
    if mode == "trained" and ckpt.is_file():
        st = ckpt.stat()
        out["checkpoint"] = {"path": str(ckpt.resolve()), "bytes": st.st_size, "mtime_ns": st.st_mtime_ns}
    return out


lm_attempt.warmup = _lm_warmup  # type: ignore[attr-defined]
lm_attempt.identity = lambda: _identity(4)  # type: ignore[attr-defined]
policy_attempt.identity = lambda: _identity(8)  # type: ignore[attr-defined]


# -- CLI -------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m rl.bench", description="curriculum problems as a benchmark folder")
    sub = ap.add_subparsers(dest="cmd", required=True)
    ex = sub.add_parser("export", help="write curriculum problems as standalone .v files")
    ex.add_argument("--out", required=True, help="output directory")
    ex.add_argument("--split", default="heldout", help="heldout (default) or train")
    ex.add_argument("--n", type=int, default=30, help="number of problems (default 30)")
    ex.add_argument("--seed", type=int, default=0, help="curriculum seed (default 0, as the shipped configs)")
    ex.add_argument("--families", default=",".join(DEFAULT_FAMILIES), help="comma-separated families")
    ex.add_argument("--max-difficulty", type=int, default=3)
    a = ap.parse_args(argv)
    families = tuple(f.strip() for f in a.families.split(",") if f.strip())
    if a.max_difficulty < 1:
        print("rl.bench: --max-difficulty must be at least 1", file=sys.stderr)
        return 2
    out = Path(a.out)
    if out.exists() and not out.is_dir():
        print(f"rl.bench: --out {out} exists and is not a directory", file=sys.stderr)
        return 2
    try:
        paths = export(out, split=a.split, n=a.n, seed=a.seed, families=families, max_difficulty=a.max_difficulty)
    except ValueError as e:
        print(f"rl.bench: {e}", file=sys.stderr)
        return 2
    print(f"wrote {len(paths)} {a.split} problems to {out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
