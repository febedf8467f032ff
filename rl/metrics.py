"""Metrics sinks: ``metrics.jsonl`` (one ``StepMetrics`` row per step, always) and TensorBoard
scalars (only when ``torch.utils.tensorboard`` imports; silently skipped otherwise).
Rollouts go to ``rollouts.jsonl`` (one ``Episode`` per line), evaluations to ``eval.jsonl``."""

from __future__ import annotations

import json
from pathlib import Path

from .records import Episode, StepMetrics


class MetricsWriter:
    def __init__(self, output_dir: str | Path, *, tensorboard: bool = True, append: bool = False):
        self.dir = Path(output_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        mode = "a" if append else "w"
        # long-lived sinks, closed by close(); one flush per write so a crash loses nothing
        self._metrics = open(self.dir / "metrics.jsonl", mode, encoding="utf-8")  # noqa: SIM115
        self._rollouts = open(self.dir / "rollouts.jsonl", mode, encoding="utf-8")  # noqa: SIM115
        self._evals = open(self.dir / "eval.jsonl", mode, encoding="utf-8")  # noqa: SIM115
        self.tb = None
        if tensorboard:
            try:
                from torch.utils.tensorboard import SummaryWriter

                self.tb = SummaryWriter(str(self.dir / "tensorboard"))
            except Exception:  # noqa: BLE001 - optional sink
                self.tb = None

    def step(self, m: StepMetrics) -> None:
        self._metrics.write(m.to_json() + "\n")
        self._metrics.flush()
        if self.tb is not None:
            for k, v in m.model_dump().items():
                if isinstance(v, (int, float)) and not isinstance(v, bool) and k != "step":
                    self.tb.add_scalar(k, v, m.step)
            for fam, v in m.by_family.items():
                self.tb.add_scalar(f"solved/{fam}", v, m.step)

    def rollouts(self, episodes: list[Episode]) -> None:
        for e in episodes:
            self._rollouts.write(e.to_json() + "\n")
        self._rollouts.flush()

    def evaluation(self, row: dict) -> None:
        self._evals.write(json.dumps(row) + "\n")
        self._evals.flush()
        if self.tb is not None and row.get("pass1") is not None:
            self.tb.add_scalar("heldout_pass1", row["pass1"], row["step"])

    def close(self) -> None:
        for f in (self._metrics, self._rollouts, self._evals):
            f.close()
        if self.tb is not None:
            self.tb.close()
