"""The prover: natural-language proof -> sketch -> parallel agentic lemma provers -> verified proof.

Library entry: ``prover.api.load_problem(path) -> Problem`` and
``prover.api.prove(problem, config, *, trace=None, pool=None, llm=None, cancel=None) -> ProofResult``.
Commands (``prove``, ``prover-check``, ``prover-setup``, ...): ``prover.commands``.
Demo: ``python3 -m prover.commands.demo``.

Modules, in pipeline order:
- ``records``: the frozen JSONL records handed between stages; ``config``: TOML config models.
- ``problem``: file -> ``Problem`` (bad input -> ``errors.BadProblem``); ``lang``: per-language syntax.
- ``informal``: the natural-language prover; ``prompts/``: prompt templates as Markdown files.
- ``sketch`` (top-level package): sketch parsing, dependency graph, model/check/repair loop.
- ``agent`` + ``tools``: the multi-turn lemma agent and its function tools.
- ``workspace``: proof-assistant checks, library search, Python sandbox, built-in search, verdict.
- ``orchestrator``: the run: budgets (``budget``), trace (``trace``), lemma cache (``cache``),
  parallel lemma proving, assembly, Ctrl-C handling.
- ``llm/``: one chat interface; OpenAI-compatible HTTP, in-process vLLM, transformers, and a
  scripted test double.
- ``search/``: the built-in default (no model): automation portfolio + best-first tactic search.
- ``view``: the rich live view for the CLI.

Importing this package starts nothing and imports no heavy dependency.
"""
