"""``python -m prover.commands.demo_llm [DIR]`` (``make demo-llm``): the bundled Rocq examples proved with
a real model as the agent.

Starts ``prover-serve smollm2`` (unless ``--endpoint`` names a running server), then proves each
``.v`` file under ``DIR`` (default ``examples/rocq``) in agent mode with
``examples/configs/smollm2.toml``: no built-in search on the whole theorem first, and (unless
``--automation-first``) no portfolio before the lemma agents, so the model's own path runs. Each
problem is shown in the live view when stderr is a terminal. The summary says, per problem and
lemma, who closed it, read from the result and the trace:

- ``model``: a proof the model wrote (checked by the ``check`` tool, or in its sketch);
- ``tool``: the model called ``auto_close`` and the built-in automation found the proof;
- ``automation``: the portfolio run before the agent (only with ``--automation-first``);
- ``cache``: the lemma cache (off unless ``--cache``).

Exit 0 when every problem ran (proved or not: the point is an honest account), 1 when a run
failed to start, 2 on bad input.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _closer(lemma, events: list) -> str:
    if lemma.source == "cache":
        return "cache"
    if lemma.source == "automation":
        by_tool = any(
            e.kind == "tool" and e.lemma == lemma.name and e.data.get("tool") == "auto_close"
            and str(e.data.get("result", "")).startswith("OK")
            for e in events
        )
        return "tool" if by_tool else "automation"
    if lemma.source in ("agent", "sketch", "split"):
        return "model"
    return lemma.source or "?"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="prover.commands.demo_llm", description=__doc__.splitlines()[0])
    ap.add_argument("dir", nargs="?", default=str(ROOT / "examples" / "rocq"))
    ap.add_argument("--endpoint", help="a running OpenAI-compatible server (default: start prover-serve smollm2)")
    ap.add_argument("--model", default="smollm2", help="model served (and its served name)")
    ap.add_argument("--config", default=str(ROOT / "examples" / "configs" / "smollm2.toml"))
    ap.add_argument("--timeout", type=float, default=240.0, help="wall budget per problem (s)")
    ap.add_argument("--automation-first", action="store_true", help="run the built-in portfolio on each lemma before its agent")
    ap.add_argument("--cache", action="store_true", help="use the persistent lemma cache")
    args = ap.parse_args(argv)
    files = sorted(Path(args.dir).glob("*.v"))
    if not files:
        print(f"prover.commands.demo_llm: no .v files in {args.dir}", file=sys.stderr)
        return 2

    from ..config import ConfigError, load_config

    try:
        cfg = load_config(
            args.config,
            env={},
            budget__wall_s=args.timeout,
            prover__automation_first=args.automation_first,
            prover__direct_search_first=False,
        )
    except ConfigError as e:
        print(f"prover.commands.demo_llm: {e}", file=sys.stderr)
        return 2
    if not args.cache:
        cfg = cfg.model_copy(update={"prover": cfg.prover.model_copy(update={"cache_path": None})})
    if args.endpoint:
        return _run(files, cfg.with_overrides(model__endpoint=args.endpoint, model__model=args.model))
    from .serve import served

    with tempfile.NamedTemporaryFile("w", prefix="prover-serve-", suffix=".log", delete=False) as log:
        print(f"starting prover-serve {args.model} (log: {log.name}) ...", file=sys.stderr, flush=True)
        try:
            with served(args.model, name=args.model, log=log) as url:
                print(f"server up at {url}", file=sys.stderr, flush=True)
                return _run(files, cfg.with_overrides(model__endpoint=url, model__model=args.model))
        except RuntimeError as e:
            print(f"prover.commands.demo_llm: {e} (log: {log.name})", file=sys.stderr)
            return 1


def _run(files: list[Path], cfg) -> int:
    from ..api import prove
    from ..errors import BadProblem
    from ..problem import load_problem
    from ..trace import Trace

    rows: list[tuple[str, str, float, str, list[tuple[str, str]]]] = []
    t_all = time.monotonic()
    for f in files:
        try:
            problem = load_problem(f)
        except BadProblem as e:
            rows.append((f.name, "bad input", 0.0, str(e), []))
            continue
        events: list = []
        trace = Trace(None)
        trace.listen(events.append)
        view = None
        if sys.stderr.isatty():
            from ..view import LiveView

            view = LiveView(problem.name)
            trace.listen(view.on_event)
        try:
            if view is not None:
                with view:
                    r = prove(problem, cfg, trace=trace)
            else:
                r = prove(problem, cfg, trace=trace)
        finally:
            trace.close()
        closers = [(lem.name, _closer(lem, events) if lem.proved else "open") for lem in r.lemmas]
        calls = sum(1 for e in events if e.kind == "llm_call")
        tools = sum(1 for e in events if e.kind == "tool")  # calls the agent ran (a malformed one gets an error back)
        status = "proved" if r.proved else "not proved"
        called = [n for e in events if e.kind == "llm_call" for n in e.data.get("tool_calls", [])]
        counts = f"{calls} model calls, {len(called)} tool calls asked, {tools} run"
        rows.append((f.name, status, r.spent.wall_s, f"{counts}; {r.reason}", closers))
        print(f"===== {f.name}: {status.upper()} in {r.spent.wall_s:.1f}s ({r.reason})", flush=True)
        if r.proved:
            print(r.proof_text)
    print(
        "\nsummary (who closed each lemma: model = a proof the model wrote; tool = the model called auto_close;"
        " automation = portfolio before the agent; cache):"
    )
    for name, status, secs, reason, closers in rows:
        print(f"  {name:30s} {status:11s} {secs:6.1f}s  {reason[:140]}")
        for lemma, who in closers:
            print(f"      {lemma:40s} {who}")
    n_ok = sum(1 for r in rows if r[1] == "proved")
    print(f"{n_ok}/{len(rows)} proved in {time.monotonic() - t_all:.1f}s")
    return 1 if any(r[1] == "bad input" for r in rows) else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
