"""``prover-train CONFIG.toml [--output DIR] [key.sub=value ...]``: train a prover policy with RL.

Parses the config first (bad input: one line on stderr, exit 2), then imports torch and runs
``rl.loop.train``; a config with ``stage = "sft"`` runs the tactic model's supervised stage
(``rl.tactic_sft``) instead. Writes ``metrics.jsonl``, ``rollouts.jsonl``, ``eval.jsonl``,
``summary.json``, ``config.json`` and ``checkpoint/`` under the output directory.
"""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    from .config import ConfigError, load_config
    from .tactic_sft_config import config_stage, load_sft_config

    ap = argparse.ArgumentParser(prog="prover-train", description=__doc__.splitlines()[0])
    ap.add_argument("config", help="TOML config (see rl/configs/)")
    ap.add_argument("--output", help="output directory (overrides output.dir)")
    ap.add_argument("overrides", nargs="*", help="key.sub=value overrides, e.g. trainer.steps=5")
    args = ap.parse_intermixed_args(argv)
    overrides = list(args.overrides)
    if args.output:
        overrides.append(f"output.dir={args.output!r}".replace("'", '"'))
    try:
        if config_stage(args.config) == "sft":
            return _run_sft(load_sft_config(args.config, overrides))
        cfg = load_config(args.config, overrides)
    except ConfigError as err:
        print(f"prover-train: {err}", file=sys.stderr)
        return 2
    from .loop import train

    try:
        summary = train(cfg, cfg.output.dir)
    except (ImportError, FileNotFoundError) as err:  # a missing extra or model: one line, not a traceback
        print(f"prover-train: {err}", file=sys.stderr)
        return 2
    if "heldout_after" not in summary:  # a rank other than 0 under torchrun: rank 0 reports
        return 0
    before = summary.get("heldout_before", {}).get("pass1")
    after = summary["heldout_after"].get("pass1")
    print(f"held-out pass@1: before {before if before is None else round(before, 3)} after {round(after, 3)}; "
          f"outputs in {cfg.output.dir}")
    return 0


def _run_sft(job) -> int:
    """The tactic model's supervised stage (``stage = "sft"``, ``rl.tactic_sft``)."""
    from .tactic_sft import train_sft

    try:
        summary = train_sft(job)
    except (ImportError, OSError, ValueError) as err:  # missing extra, model or data, unwritable output: one line
        print(f"prover-train: {err}", file=sys.stderr)
        return 2
    before, after = summary["eval_before"], summary["eval_after"]
    start = "" if before is None else f"top-1 {before['top1']:.3f} top-5 {before['top5']:.3f} -> "
    print(f"held-out tactic accuracy: {start}top-1 {after['top1']:.3f} top-5 {after['top5']:.3f}; "
          f"{summary['steps']} steps, {summary['tokens_per_s']} tokens/s; outputs in {job.output.dir}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
