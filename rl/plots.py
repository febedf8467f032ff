"""Figures from a run directory: ``python -m rl.plots RUN_DIR [--out DIR]``.

Writes ``learning_curve.png`` (training solved rate per step, coloured by sync/async, with
held-out pass@1 points from ``eval.jsonl``) and ``time_split.png`` (per mode: seconds per step
spent waiting for rollouts vs training, and the generation / checker seconds summed over
rollout threads). Reads only ``metrics.jsonl``, ``eval.jsonl`` and ``summary.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def plot(run: Path, out: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = _rows(run / "metrics.jsonl")
    evals = _rows(run / "eval.jsonl") if (run / "eval.jsonl").is_file() else []
    out.mkdir(parents=True, exist_ok=True)
    written = []

    fig, ax = plt.subplots(figsize=(7, 4))
    steps = [r["step"] for r in rows]
    ax.plot(steps, [r["solved_rate"] for r in rows], color="0.6", lw=1, zorder=1)
    for mode, colour in (("sync", "tab:blue"), ("async", "tab:orange")):
        pts = [(r["step"], r["solved_rate"]) for r in rows if r["mode"] == mode]
        if pts:
            xs, ys = zip(*pts)
            ax.scatter(xs, ys, s=12, color=colour, label=f"train solved rate ({mode} step)", zorder=2)
    if evals:
        ax.plot([e["step"] for e in evals], [e["pass1"] for e in evals], "k-s", label="held-out pass@1", zorder=3)
    ax.set_xlabel("trainer step")
    ax.set_ylabel("fraction proved (full verdict)")
    ax.set_ylim(-0.02, 1.02)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title(f"RL on the Rocq curriculum: {run.name}")
    fig.tight_layout()
    p = out / "learning_curve.png"
    fig.savefig(p, dpi=110)
    plt.close(fig)
    written.append(p)

    summary = json.loads((run / "summary.json").read_text()) if (run / "summary.json").is_file() else {}
    modes = summary.get("modes", {})
    if modes:
        fig, ax = plt.subplots(figsize=(7, 3.5))
        names = list(modes)
        per = {m: max(1, modes[m].get("steps", 1)) for m in names}
        parts = [("wait_seconds", "trainer waiting for rollouts"), ("train_seconds", "training")]
        left = [0.0] * len(names)
        for key, label in parts:
            vals = [modes[m].get(key, 0) / per[m] for m in names]
            ax.barh(names, vals, left=left, label=label)
            left = [a + b for a, b in zip(left, vals)]
        for i, m in enumerate(names):
            g = modes[m].get("gen_seconds", 0) / per[m]
            c = modes[m].get("check_seconds", 0) / per[m]
            ax.text(left[i] + 0.2, i, f"gen {g:.1f}s, checker {c:.1f}s (thread-summed)", va="center", fontsize=8)
        ax.set_xlabel("seconds per trainer step")
        ax.set_xlim(0, max(left) * 2.0 + 1)
        ax.legend(fontsize=8, loc="lower right")
        fig.tight_layout()
        p = out / "time_split.png"
        fig.savefig(p, dpi=110)
        plt.close(fig)
        written.append(p)
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m rl.plots", description="figures from an rl run directory")
    ap.add_argument("run")
    ap.add_argument("--out")
    a = ap.parse_args(argv)
    run = Path(a.run)
    if not (run / "metrics.jsonl").is_file():
        print(f"rl.plots: no metrics.jsonl in {run}", file=sys.stderr)
        return 2
    for p in plot(run, Path(a.out) if a.out else run):
        print(p)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
