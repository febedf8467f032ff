"""Step records from proofs the search found and the benchmark verdict accepted (expert iteration).

What is covered: every ``proved`` attempt of one suite in a results database (``prover-bench
run``). Its problem is the one the database recorded (the text the verdict checked against,
with its load-path flags); the found proof (the ``proof`` column holds the whole checked file)
is parsed with the project's Rocq parser (``lean_tools.rocq.parser.parse``), its body put in
place of the problem's admitted body (``SourceFile.render``, as the prover assembles a
candidate), and the result replayed with ``rl.stepdata.replay``: the file before the target's
declaration is loaded as one block, the declaration, its proof and what follows go sentence by
sentence. Only the target lemma's steps are kept, as ``Step(source="search", split="train")``.

What is refused:
- a suite used for evaluation (``refusal``): miniF2F, ``reprove-test``, PutnamBench, IMO,
  ``reprove-dev`` and its held-out sample ``reprove-dev-heldout`` (``RefusedSuite``);
- a problem whose file is held out of training (``benchmarks.library_split.is_held_out``), or
  whose file is not of a development library (``DEVELOPMENT_LIBRARIES``): recorded as
  ``refused`` with its reason, no step written.

What is not covered: helper lemmas the prover added before the target are not replayed (the
body is put back in the problem's own file); a proof that needs them fails its replay and is
recorded as ``failed``. Lean problems have no step format here.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from benchmarks.library_split import DEVELOPMENT_LIBRARIES, is_held_out
from benchmarks.problem import BenchProblem
from lean_tools.source import strip_comments

from .replay import ReplayConfig, replay_file
from .schema import Step, dedup, write_jsonl

EVALUATION_PREFIXES = ("minif2f", "reprove-test", "putnam", "imo")
"""Suites whose names start with one of these are evaluation suites."""
EVALUATION_SUITES = ("reprove-dev", "reprove-dev-heldout")
"""The development suite (all of its files are held out) and its expert-iteration sample."""


class RefusedSuite(ValueError):
    """The suite is used for evaluation: its proofs must never become training data."""


def refusal(suite: str) -> str | None:
    """Why ``suite``'s proofs may not become training data, or ``None`` when they may."""
    if suite in EVALUATION_SUITES or suite.startswith(EVALUATION_PREFIXES):
        return (f"suite {suite!r} is used for evaluation (miniF2F, reprove-test, PutnamBench, IMO, reprove-dev, "
                "reprove-dev-heldout): its proofs must not become training data")
    return None


@dataclass(frozen=True)
class ProvedAttempt:
    """One ``proved`` attempt of the database: its row id, the problem as recorded, the checked file."""

    attempt_id: int
    problem: BenchProblem
    proof: str


class AttemptSteps(BaseModel):
    """What one proved attempt gave: its status, why, and how many target steps were kept."""

    model_config = ConfigDict(frozen=True)

    attempt_id: int
    problem_id: str
    status: Literal["ok", "refused", "failed"]
    reason: str = ""
    steps: int = 0


def proved_attempts(db_path: Path, suite: str) -> list[ProvedAttempt]:
    """The finished ``proved`` attempts of ``suite`` in the results database, in row order.
    Raises ``benchmarks.db.DBError`` for a missing or foreign database."""
    from benchmarks.db import ResultsDB

    with ResultsDB(db_path, readonly=True) as db:
        rows = db.conn.execute(
            "SELECT a.id, a.proof, p.record FROM attempts a JOIN problems p ON p.problem_id = a.problem_id "
            "WHERE a.status = 'done' AND a.outcome = 'proved' AND p.suite = ? ORDER BY a.id", (suite,)).fetchall()
    return [ProvedAttempt(attempt_id=int(r[0]), problem=BenchProblem.model_validate_json(r[2]), proof=r[1] or "")
            for r in rows]


def source_file(problem: BenchProblem) -> tuple[str, str]:
    """(library, path relative to its root) of a reprove problem (``source`` is ``library:relpath``);
    ``ValueError`` for any other problem."""
    library, sep, relpath = problem.source.partition(":")
    if not sep or not relpath.endswith(".v") or problem.language != "rocq":
        raise ValueError(f"{problem.id}: not a library file's lemma (source {problem.source!r})")
    return library, relpath


def file_refusal(library: str, relpath: str) -> str | None:
    """Why the proofs of this file may not become training data, or ``None``."""
    if library not in DEVELOPMENT_LIBRARIES:
        return f"{library} is not a development library ({', '.join(DEVELOPMENT_LIBRARIES)})"
    if is_held_out(library, relpath):
        return f"{library}/{relpath} is held out of training (benchmarks.library_split.is_held_out)"
    return None


def substitute(problem_text: str, proof_text: str, theorem: str | None) -> str:
    """``problem_text`` with the target's admitted body replaced by the body ``proof_text`` gives
    it. ``ValueError`` when either does not parse or the target's statement differs."""
    from lean_tools.rocq.parser import parse

    p, q = parse(problem_text, theorem), parse(proof_text, theorem)
    if p.statement_text() != q.statement_text():
        raise ValueError(f"the proof's statement of {p.theorem_name} differs from the problem's")
    if q.terminator not in ("Qed.", "Defined."):
        raise ValueError(f"the proof of {q.theorem_name} ends in {q.terminator or 'nothing'!r}, not Qed/Defined")
    return p.render(q.proof, terminator=q.terminator)


def steps_of_attempt(att: ProvedAttempt, config: ReplayConfig) -> tuple[AttemptSteps, list[Step]]:
    """Replay one proved attempt (module docstring) and return its result and the target's steps.
    Never raises for a bad attempt: refusals and failures are results."""
    from lean_tools.rocq.parser import parse

    def result(status: Literal["ok", "refused", "failed"], reason: str = "", steps: int = 0) -> AttemptSteps:
        return AttemptSteps(attempt_id=att.attempt_id, problem_id=att.problem.id, status=status, reason=reason, steps=steps)

    try:
        library, relpath = source_file(att.problem)
    except ValueError as e:
        return result("refused", str(e)), []
    why = file_refusal(library, relpath)
    if why:
        return result("refused", why), []
    try:
        text = substitute(att.problem.text, att.proof, att.problem.theorem)
        target = parse(text, att.problem.theorem)
    except ValueError as e:
        return result("failed", f"cannot assemble the proof: {e}"), []
    # a header of comments only is no block coqtop can be sent: the whole file is replayed then
    cut = target.decl_start if strip_comments(text[: target.decl_start], "rocq").strip() else 0
    cfg = ReplayConfig(step_timeout=config.step_timeout, file_timeout=config.file_timeout,
                       extra_args=tuple(att.problem.flags), header=text[:cut])
    with tempfile.TemporaryDirectory(prefix="from-proofs-") as tmp:
        path = Path(tmp) / "target.v"
        path.write_text(text[cut:], encoding="utf-8")
        replayed, steps = replay_file(path, library, relpath, "train", cfg)  # type: ignore[arg-type]
    kept = [s.model_copy(update={"source": "search"}) for s in steps if s.lemma == target.theorem_name]
    if replayed.status != "ok":
        return result("failed", f"replay {replayed.status}: {replayed.reason}"), []
    if not kept:
        return result("failed", f"the replay recorded no step of {target.theorem_name}"), []
    return result("ok", steps=len(kept)), kept


@dataclass(frozen=True)
class FromProofsSummary:
    """What ``from_proofs`` wrote: attempts per status, steps before and after dedup."""

    attempts: dict[str, int]
    steps: int
    unique_steps: int
    results: list[AttemptSteps]

    def as_dict(self) -> dict:
        return {"attempts": self.attempts, "steps": self.steps, "unique_steps": self.unique_steps,
                "not_ok": [r.model_dump() for r in self.results if r.status != "ok"]}


def from_proofs(db_path: Path, suite: str, out: Path, config: ReplayConfig | None = None,
                progress: Callable[[AttemptSteps], None] | None = None) -> FromProofsSummary:
    """Steps of every proved attempt of ``suite`` in ``db_path``, deduplicated, written to ``out``
    (JSONL; written whole at the end through a temporary file, so a present ``out`` is complete).
    Raises ``RefusedSuite`` for an evaluation suite, before reading anything."""
    why = refusal(suite)
    if why:
        raise RefusedSuite(why)
    results: list[AttemptSteps] = []
    steps: list[Step] = []
    for att in proved_attempts(db_path, suite):
        res, got = steps_of_attempt(att, config or ReplayConfig())
        results.append(res)
        steps += got
        if progress:
            progress(res)
    unique = dedup(steps)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".part")
    write_jsonl(tmp, unique)
    os.replace(tmp, out)
    counts: dict[str, int] = {}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    return FromProofsSummary(attempts=counts, steps=len(steps), unique_steps=len(unique), results=results)


def summary_json(summary: FromProofsSummary) -> str:
    return json.dumps(summary.as_dict(), indent=1)
