"""Records handed between the benchmark stages: problem -> validation -> attempt.

All are frozen pydantic models that round-trip through JSON (one per line in JSONL, or a
TEXT column in the results database).

What is covered: a problem statement as the full text of a checkable file (imports,
definitions, the theorem with a hole), its provenance (suite, split, tags), the verdict of the
validation pass, and one attempt's outcome with its costs.
What is not covered: the prover's own traces; those stay in the prover's logs.
"""

from __future__ import annotations

import hashlib
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Language = Literal["lean", "rocq"]
Outcome = Literal["proved", "failed", "timeout", "error"]
"""``proved``: a proof was found and verified; ``failed``: the prover gave up within budget;
``timeout``: the attempt ran past its hard wall-clock limit and was killed; ``error``: an
infrastructure failure (worker died, prover raised) — data, not a crash of the run."""

ValidationStatus = Literal["ok", "failed", "unvalidated"]


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class BenchProblem(_Record):
    """One benchmark problem: a file that compiles with its proof replaced by a hole."""

    suite: str
    """Suite name, e.g. ``minif2f-rocq-test``."""
    name: str
    """Problem name, unique within the suite (usually the theorem name)."""
    language: Language
    text: str
    """Full file text: header, preamble, the theorem, and a hole (``sorry``/``Admitted.``)."""
    theorem: str | None = None
    """Name of the theorem to prove; ``None`` lets the prover pick the last one in ``text``."""
    split: str | None = None
    tags: tuple[str, ...] = ()
    difficulty: str | None = None
    informal: str | None = None
    """Informal statement, only when the data directory provides one."""
    source: str = ""
    """Where the text came from (path relative to the data dir, or a note)."""
    flags: tuple[str, ...] = ()
    """Load-path flags the statement compiles under, in coqc's spelling (``-noinit``,
    ``-R /abs/dir Lib``, ``-Q /abs/dir Lib``); every check of the problem (validation, the
    prover's sessions, the verdict) passes them. Empty for self-contained files."""
    reference: str | None = None
    """What the problem restates, when it restates an existing constant: its qualified name
    (``Coq.Lists.List.app_nil_r`` for a ``reprove`` problem); proofs that use it are rejected."""

    @property
    def id(self) -> str:
        """Stable id across runs: ``suite/name``."""
        return f"{self.suite}/{self.name}"

    @property
    def statement_hash(self) -> str:
        """Hash of the text and, when there are any, the flags (so new flags re-validate)."""
        blob = self.text + "".join(f"\0{f}" for f in self.flags)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


class Validation(_Record):
    """Whether a problem's statement compiles in the installed environment."""

    problem_id: str
    statement_hash: str
    environment: str
    """Fingerprint of the checker that ran (e.g. ``coqc 8.16.1``); a new one re-validates."""
    status: ValidationStatus
    reason: str = ""
    cpu_s: float = 0.0


class AttemptRequest(_Record):
    """What a worker needs, besides the problem, to make one attempt."""

    seed: int
    timeout_s: float
    """Per-attempt budget in wall-clock seconds, passed to the prover's config."""
    config: dict = Field(default_factory=dict)
    """Prover configuration (the TOML, parsed); the attempt function validates it."""
    config_hash: str = ""


class AttemptResult(_Record):
    """One attempt's outcome. A failed attempt is data, never an exception."""

    outcome: Outcome
    proof: str | None = None
    """The verified proof (full file text); ``None`` unless ``outcome == 'proved'``."""
    reason: str = ""
    tokens: int = 0
    checker_cpu_s: float = 0.0
    """CPU seconds spent in the proof assistant (sessions + file checks)."""
    wall_s: float = 0.0
    model_s: float | None = None
    """Wall seconds the tactic model spent answering inside the attempt (its load not counted); 0 when
    the attempt asked no model, None when not measured (the attempt function does not report it,
    or the attempt was abandoned before its search returned)."""
    knn_s: float | None = None
    """Seconds spent asking the k-NN tactic index inside the attempt; 0 and None as for ``model_s``."""

    @property
    def proved(self) -> bool:
        return self.outcome == "proved"


def config_hash(config: dict) -> str:
    """Stable short hash of a configuration (canonical JSON, sorted keys)."""
    import json

    blob = json.dumps(config, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:12]
