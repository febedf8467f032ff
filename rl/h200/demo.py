"""``python -m rl.h200.demo CONFIG --output DIR [key=value ...]``: train, then print the figures.

Runs ``rl.loop.train`` (the same job as ``prover-train``) and prints, from its ``summary.json``:
held-out pass@1 before and after, throughput (rollouts, verdicts and trained tokens per second),
the time split of a step (waiting for rollouts, of which waiting for the checker, and training)
per mode, and the async / sync ratio of seconds per step when both modes ran. The device is
named first. Bad input: one line, exit 2.
"""

from __future__ import annotations

import argparse
import sys
import time


def report(summary: dict, wall: float, device: str) -> str:
    lines = [f"device: {device}", f"wall: {wall:.0f} s"]
    before = summary.get("heldout_before", {})
    after = summary.get("heldout_after", {})
    lines.append(f"held-out pass@1: before {before.get('pass1', float('nan')):.3f} -> after "
                 f"{after.get('pass1', float('nan')):.3f} ({after.get('problems', 0)} problems x "
                 f"{after.get('samples', 0)} samples; by family after {after.get('by_family', {})})")
    for mode, m in sorted(summary.get("modes", {}).items()):
        lines.append(f"[{mode}] {m.get('steps', 0)} steps, {m.get('seconds_per_step', 0):.1f} s/step; "
                     f"rollouts/s {m.get('rollouts_per_s', 0):.2f}, verdicts/s {m.get('verdicts_per_s', 0):.2f}, "
                     f"trained tokens/s {m.get('train_tokens_per_s', 0):.1f}")
        lines.append(f"[{mode}] time split: waiting for rollouts {m.get('share_waiting_for_rollouts', 0):.0%} "
                     f"(checker {m.get('share_waiting_for_checker', 0):.0%}), training "
                     f"{m.get('share_training', 0):.0%}")
    modes = summary.get("modes", {})
    if "sync" in modes and "async" in modes and modes["async"].get("seconds_per_step"):
        ratio = modes["sync"]["seconds_per_step"] / modes["async"]["seconds_per_step"]
        lines.append(f"async speed-up (sync s/step / async s/step): {ratio:.2f}x")
    if summary.get("stopped_by_wall") is not None:
        lines.append(f"stopped by trainer.max_wall_s after step {summary['stopped_by_wall']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from rl.config import ConfigError, load_config

    ap = argparse.ArgumentParser(prog="rl.h200.demo", description=__doc__.splitlines()[0])
    ap.add_argument("config")
    ap.add_argument("--output", required=True)
    ap.add_argument("overrides", nargs="*")
    args = ap.parse_intermixed_args(argv)
    try:
        cfg = load_config(args.config, [*args.overrides, f'output.dir="{args.output}"'])
    except ConfigError as err:
        print(f"rl.h200.demo: {err}", file=sys.stderr)
        return 2
    import torch

    from rl.loop import train

    device = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "cpu"
    t0 = time.perf_counter()
    summary = train(cfg, cfg.output.dir)
    text = report(summary, time.perf_counter() - t0, device)
    print(text)
    with open(f"{cfg.output.dir}/report.txt", "w") as f:
        f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
