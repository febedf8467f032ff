"""PNG plots for reports (matplotlib, Agg backend; imported only when a report is written).

- ``plot_pass_at_k``: pass@k against k (log2 axis), one line per run.
- ``plot_scaling``: solved fraction against expected cost per problem (log axis), one line
  per per-attempt budget (points = k), with the log-linear fit and its R² in the legend.
"""

from __future__ import annotations

import math
from pathlib import Path

from .analysis import Run, Sweep, pass_table

AXIS_LABEL = {
    "checker_cpu_s": "proof-assistant CPU seconds per problem",
    "tokens": "LLM tokens per problem",
    "combined": "combined cost per problem (CPU-s + tokens x rate)",
    "wall_s": "wall seconds per problem",
}


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot_pass_at_k(runs: list[Run], path: Path) -> Path | None:
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    drawn = 0
    for r in runs:
        rows = pass_table(r)
        if not rows:
            continue
        ax.plot([k for k, _, _ in rows], [v * 100 for _, v, _ in rows], marker="o", label=f"{r.label} ({r.suite})")
        drawn += 1
    if not drawn:
        plt.close(fig)
        return None
    ax.set_xscale("log", base=2)
    ax.set_xlabel("k (attempts per problem)")
    ax.set_ylabel("pass@k (%)")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7)
    ax.set_title("pass@k (unbiased estimator)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def plot_scaling(sweep: Sweep, axis: str, path: Path) -> Path | None:
    pts = [p for p in sweep.points if p.cost[axis] > 0]
    if len(pts) < 2:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for budget in sorted({p.timeout_s for p in pts}):
        line = sorted((p for p in pts if p.timeout_s == budget), key=lambda p: p.cost[axis])
        ax.plot([p.cost[axis] for p in line], [p.solved * 100 for p in line], marker="o",
                label=f"budget {budget:g}s/attempt (k={','.join(str(p.k) for p in line)})")
    fit = sweep.fits[axis]
    if fit.points >= 2:
        lo, hi = min(p.cost[axis] for p in pts), max(p.cost[axis] for p in pts)
        xs = [lo * (hi / lo) ** (i / 49) for i in range(50)]
        r2 = "n/a" if math.isnan(fit.r2) else f"{fit.r2:.3f}"
        ax.plot(xs, [fit.predict(x) * 100 for x in xs], "k--", linewidth=1,
                label=f"fit {fit.a * 100:.1f} {fit.b * 100:+.2f}·ln(x) %, R²={r2}")
    ax.set_xscale("log")
    from matplotlib.ticker import FormatStrFormatter, LogLocator, NullFormatter

    ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    ax.xaxis.set_major_formatter(FormatStrFormatter("%g"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel(AXIS_LABEL.get(axis, axis))
    ax.set_ylabel("solved (%)")
    ax.set_ylim(0, min(100.0, max(5.0, 130 * max(p.solved for p in pts) + 1)))  # from 0: no zoomed-in flat lines
    ax.grid(True, alpha=0.3, which="both")
    ax.legend(fontsize=7)
    ax.set_title(f"{sweep.suite}: solved vs cost ({len(sweep.problems)} problems, config {sweep.config_hash})", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
