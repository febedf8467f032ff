"""``prove FILE``: prove a theorem in a .v (Rocq) or .lean (Lean 4) file, or fill the holes of
a Rocq file inside its project.

A competition file (one theorem left open) is proved as one problem. A Rocq file with several
holes, holes in sections or modules, or a partial script goes to ``prove_holes`` (every hole in
file order). The project's load path comes from its ``_CoqProject`` or dune theory, plus
``-Q``/``-R``/``-I`` here and ``project.flags`` in the config.

``--preset NAME`` (``prover/presets.py``): ``default`` (the plain prove), ``hammer`` (CoqHammer
alone, ``search.hammer = "only"``), ``knn`` (the search with the k-NN tactic index,
``search.knn_index``), ``lm`` (with the tactic language model, ``search.lm_model``), ``learned``
(with both); exit 2 when the index or model is not installed. ``--timeout`` stays the budget.

Exit codes: 0 proved (every chosen hole; soundness verdict accepted), 1 not proved within
budget (also after Ctrl-C), 2 bad input, a file that does not compile as it is, or a missing
proof assistant. Heavy modules are imported after the arguments are parsed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="prove", description="Prove a theorem in a .v (Rocq) or .lean (Lean 4) file.")
    p.add_argument("file", help="problem file (.v or .lean)")
    p.add_argument("--theorem", action="append", help="a theorem or hole to prove (repeatable; default: every hole)")
    p.add_argument("-Q", nargs=2, action="append", metavar=("DIR", "NAME"), dest="q_flags", help="coqc -Q: map DIR to logical NAME")
    p.add_argument("-R", nargs=2, action="append", metavar=("DIR", "NAME"), dest="r_flags", help="coqc -R (recursive, like -Q)")
    p.add_argument("-I", action="append", metavar="DIR", dest="i_flags", help="coqc -I: an OCaml plugin folder")
    p.add_argument("--build", action="store_true", help="run the project's own build first (coq_makefile + make, or dune build)")
    p.add_argument("--hole-timeout", type=float, help="wall-clock seconds for one hole of a project file")
    p.add_argument("--in-place", action="store_true", help="write the filled file over FILE (the original kept as FILE.orig)")
    p.add_argument(
        "--allow-require",
        action="store_true",
        help=(
            "a project file's hole may be proved with a library the file does not load "
            "(Lia, Lra, Psatz, Hammer.Tactics): its Require line is added and reported"
        ),
    )
    p.add_argument("--config", help="TOML config (see configs/)")
    p.add_argument(
        "--backend", choices=["none", "openai", "vllm", "transformers"], help="model backend (default: from config; none = built-in search)"
    )
    p.add_argument("--model", help="model name or local path")
    p.add_argument("--endpoint", help="OpenAI-compatible base URL, e.g. http://127.0.0.1:8000/v1")
    p.add_argument(
        "--informal", help="file with an informal proof to sketch from (graded by the model's verifier unless informal.grade_user is off)"
    )
    p.add_argument("--workers", type=int, help="lemmas proved in parallel")
    p.add_argument("--timeout", type=float, help="wall-clock budget in seconds")
    p.add_argument(
        "--preset",
        choices=["default", "hammer", "knn", "lm", "learned"],
        help="default: the plain prove; hammer: CoqHammer alone; knn: the search with the k-NN tactic index; lm: with the tactic "
        "language model; learned: with both (prover-setup model tactics installs the index and the model)",
    )
    p.add_argument("--search-timeout", type=float, help="seconds for the built-in search on the whole theorem")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the lemma cache")
    p.add_argument("--out", help="write the complete verified (or filled) file here")
    p.add_argument("--trace", help="write the JSONL trace here")
    p.add_argument("--json", action="store_true", help="print a machine-readable summary instead of the live view")
    p.add_argument("--quiet", action="store_true", help="no live view")
    return p


def _fail(msg: str) -> int:
    print(f"prove: error: {msg}", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    started = time.monotonic()  # --timeout counts from here: imports and setup are part of the run
    args = _parser().parse_args(argv)
    from ..config import ConfigError, load_config
    from ..errors import BadProblem
    from ..problem import load_problem

    try:
        cfg = load_config(
            args.config,
            model__type=args.backend,
            model__model=args.model,
            model__endpoint=args.endpoint,
            prover__workers=args.workers,
            budget__wall_s=args.timeout,
            search__timeout_s=args.search_timeout,
        )
        if args.no_cache:
            cfg = cfg.model_copy(update={"prover": cfg.prover.model_copy(update={"cache_path": None})})
        if args.workers is not None and args.workers < 1:
            raise ConfigError("--workers must be at least 1")
        if args.timeout is not None and args.timeout <= 0:
            raise ConfigError("--timeout must be positive")
        cfg = _with_preset(cfg, args.preset)
    except ConfigError as e:
        return _fail(str(e))
    if args.hole_timeout is not None and args.hole_timeout <= 0:
        return _fail("--hole-timeout must be positive")
    if args.file.endswith(".v"):
        routed = _rocq_project_route(args, cfg, started)
        if routed is not None:
            return routed
    informal = None
    if args.informal:
        try:
            informal = Path(args.informal).read_text(encoding="utf-8")
        except OSError as e:
            return _fail(f"cannot read --informal file {args.informal}: {e.strerror or e}")
    try:
        problem = load_problem(args.file, (args.theorem or [None])[0], informal=informal)
    except BadProblem as e:
        return _fail(str(e))
    from lean_tools.assistant import assistant

    missing = assistant(problem.language).missing()
    if missing:
        return _fail(missing)
    return _run(problem, cfg, args, started)


def _with_preset(cfg, name: str | None):
    """``cfg`` with the ``search`` settings of preset ``name`` (``ConfigError`` when it cannot run)."""
    if name is None:
        return cfg
    from ..config import ConfigError
    from ..presets import PresetError, search_overrides

    try:
        overrides = search_overrides(name)
    except PresetError as e:
        raise ConfigError(str(e)) from None
    return cfg.with_overrides(**{f"search__{k}": v for k, v in overrides.items()})


def _cli_flags(args) -> list[str]:
    flags: list[str] = []
    for d, n in args.q_flags or []:
        flags += ["-Q", d, n]
    for d, n in args.r_flags or []:
        flags += ["-R", d, n]
    for d in args.i_flags or []:
        flags += ["-I", d]
    return flags


def _rocq_project_route(args, cfg, started: float) -> int | None:
    """The Rocq file's project context; the fill path's exit code for a project file, an exit 2
    for a file that cannot be used, or None to go on as one competition problem."""
    from lean_tools.rocq.project import ProjectError, activate, build, find_project

    from .prove_holes import check_compiles, needs_fill_path, run_fill

    try:
        text = Path(args.file).read_text(encoding="utf-8")
        project = find_project(args.file, [*cfg.project.flags, *_cli_flags(args)])
    except FileNotFoundError:
        return _fail(f"{args.file}: no such file")
    except (OSError, UnicodeDecodeError) as e:
        return _fail(f"{args.file}: cannot read: {e}")
    except ProjectError as e:
        return _fail(str(e))
    from lean_tools.assistant import assistant

    missing = assistant("rocq").missing()
    if missing:
        return _fail(missing)
    if args.build:
        ok, out = build(project)
        if not ok:
            return _fail(f"the project's build failed: {out}")
    bad = check_compiles(args.file, text, project)
    if bad:
        return _fail(bad)
    if needs_fill_path(text, args):
        return run_fill(args.file, text, project, cfg, args)
    if not project.flags:
        return None
    from ..errors import BadProblem
    from ..problem import load_problem

    try:
        problem = load_problem(args.file, (args.theorem or [None])[0])
    except BadProblem as e:
        return _fail(str(e))
    with activate(project):
        return _run(problem, cfg, args, started)


def _run(problem, cfg, args, started: float | None = None) -> int:
    from lean_tools.types import NotInstalled

    from ..api import prove
    from ..errors import BadProblem
    from ..llm.base import BackendUnavailable
    from ..trace import Trace

    trace = Trace(args.trace) if args.trace else Trace(None)
    view = None
    if not args.json and not args.quiet and sys.stderr.isatty():
        from ..view import LiveView

        view = LiveView(problem.name)
        trace.listen(view.on_event)
    try:
        if view is not None:
            with view:
                result = prove(problem, cfg, trace=trace, started=started)
        else:
            result = prove(problem, cfg, trace=trace, started=started)
    except BadProblem as e:
        return _fail(str(e))
    except NotInstalled as e:
        hint = e.hint if "prover-setup" in (e.hint or "") else f"run `prover-setup {problem.language}`"
        return _fail(f"{e.what} is not installed: {hint}")
    except BackendUnavailable as e:
        return _fail(str(e))
    finally:
        trace.close()
    if result.proved and args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(result.proof_text or "", encoding="utf-8")
    if args.json:
        summary = {
            "problem": result.problem,
            "file": problem.path,
            "language": result.language,
            "theorem": problem.theorem_name,
            "proved": result.proved,
            "reason": result.reason,
            "mode": result.mode,
            "model": result.model,
            "stopped_by": result.stopped_by,
            "spent": result.spent.model_dump(),
            "lemmas": [{"name": lem.name, "proved": lem.proved, "source": lem.source, "attempts": lem.attempts} for lem in result.lemmas],
            "verdict": result.verdict.model_dump() if result.verdict else None,
            "out": args.out if result.proved and args.out else None,
            "trace": args.trace,
            "proof_text": result.proof_text,
            "informal": _informal_summary(result.informal),
        }
        print(json.dumps(summary, indent=2))
    else:
        s = result.spent
        status = "PROVED" if result.proved else "NOT PROVED"
        print(
            f"{status}: {problem.name} ({result.reason}) in {s.wall_s:.1f}s; checker {s.checker_cpu_s:.1f} cpu-s; "
            f"{s.attempts} attempts; {s.llm_calls} llm calls; {s.tokens_in + s.tokens_out} tokens"
            + (f"; tactic model {s.tactic_model_calls} calls, {s.tactic_model_tokens} tokens, {s.tactic_model_s:.1f}s"
               if s.tactic_model_calls else ""),
            file=sys.stderr,
        )
        if result.proved:
            print(result.proof_text, end="" if (result.proof_text or "").endswith("\n") else "\n")
    code = 0 if result.proved else 1
    if result.stopped_by == "interrupt":
        # Worker threads may still sit in a model request (up to its timeout); the trace is
        # closed and every proof-assistant process is gone, so do not wait for them at exit.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


def _informal_summary(informal) -> dict | None:
    """The informal proof the sketch used: where it came from, its judgement's score (None when
    it was not graded) and the verifier's flags (``informal.flags``)."""
    if informal is None:
        return None
    return {
        "source": informal.source,
        "candidate": informal.candidate,
        "score": informal.score,
        "flags": [f.model_dump() for f in informal.flags],
    }


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
