"""Problem sampling with online difficulty filtering (INTELLECT-3 style).

Each training problem remembers the pass rates of its last ``window`` groups. A problem
whose remembered pass rate is exactly 0 or exactly 1 (it teaches nothing under group-relative
advantages) is drawn with weight ``filter_weight``; all others weigh 1. Problems never seen
weigh 1. Draws are weighted, with replacement, from a seeded ``random.Random``; the
sampler's whole state (RNG, cursor, history) round-trips through ``state()``/``load_state()``
so a resumed run draws the same problems.
"""

from __future__ import annotations

import random
import threading
from collections import deque

from .records import Problem


class ProblemSampler:
    def __init__(self, problems: list[Problem], *, seed: int = 0, filtering: bool = True, window: int = 2,
                 filter_weight: float = 0.1):
        if not problems:
            raise ValueError("no training problems")
        self.problems = problems
        self.filtering = filtering
        self.window = window
        self.filter_weight = filter_weight
        self.rng = random.Random(seed)
        self.cursor = 0
        self.history: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def weight(self, problem: Problem) -> float:
        if not self.filtering:
            return 1.0
        h = self.history.get(problem.id)
        if not h:
            return 1.0
        rate = sum(h) / len(h)
        return self.filter_weight if rate in (0.0, 1.0) else 1.0

    def draw(self) -> Problem:
        with self._lock:
            weights = [self.weight(p) for p in self.problems]
            if sum(weights) <= 0:
                weights = [1.0] * len(self.problems)
            self.cursor += 1
            return self.rng.choices(self.problems, weights=weights, k=1)[0]

    def record(self, problem_id: str, pass_rate: float) -> None:
        with self._lock:
            self.history.setdefault(problem_id, deque(maxlen=self.window)).append(pass_rate)

    def filtered_fraction(self) -> float:
        """Share of problems currently down-weighted."""
        with self._lock:
            return sum(self.weight(p) < 1.0 for p in self.problems) / len(self.problems)

    def state(self) -> dict:
        with self._lock:
            return {"rng": self.rng.getstate(), "cursor": self.cursor,
                    "history": {k: list(v) for k, v in self.history.items()}}

    def load_state(self, st: dict) -> None:
        with self._lock:
            rng = st["rng"]
            self.rng.setstate((rng[0], tuple(rng[1]), rng[2]))
            self.cursor = st["cursor"]
            self.history = {k: deque(v, maxlen=self.window) for k, v in st["history"].items()}
