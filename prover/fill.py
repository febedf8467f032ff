"""Fill the holes of a Rocq file inside its project, in file order.

``fill_file(request) -> FillReport``. For each chosen hole (``lean_tools.rocq.holes``): the file
as it stands (earlier holes already filled, so their lemmas are usable) is cut after the hole,
its open sections and modules are closed, and the prover (``prover.api.prove``: the built-in
search, the hammer, agents when a model is configured) proves that one lemma with the project's
load path active. A proof found is spliced into the hole's body only: every byte outside the
filled bodies stays as it was. A partial script before ``Admitted.`` is kept and the search
continues from the state after it.

The whole result is then judged in context (``prover.fill_verdict``): it compiles in a fresh
sandboxed ``coqc`` with the project's flags, each filled body passes the proof screens, and each
filled lemma's ``Print Assumptions`` lists only the standard whitelist plus the axioms the
project itself declares; a lemma that rests on a hole still admitted is ``proved_assuming``.

Not covered: ``admit.`` holes inside finished proofs are listed and reported ``not_proved`` (the
search does not start from a focused subgoal yet); helper lemmas an agent wants outside the body
are not written (the hole is reported ``not_proved`` with the reason).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from lean_tools.rocq.holes import Hole, closers, fill, find_holes
from lean_tools.rocq.project import RocqProject, activate

from .config import ProverConfig
from .errors import BadProblem
from .records import FillReport, HoleResult

STRICT_SHARE = 0.6
"""Share of a hole's budget for a proof under the global context, before one that may rest on
lemmas still admitted (``proved_assuming``) is tried with the rest."""


class FillRequest(BaseModel):
    """What ``fill_file`` needs."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)
    path: str
    text: str
    project: RocqProject
    config: ProverConfig
    theorems: tuple[str, ...] = ()
    """Names (short or qualified) of the holes to fill; empty: every hole."""
    hole_timeout_s: float | None = None
    """One hole's wall-clock budget (default: the config's whole budget)."""


def choose(holes: Sequence[Hole], names: Sequence[str]) -> list[Hole]:
    """The holes named in ``names`` (short, qualified, or the ``#admitN`` label), in file order.
    Raises ``BadProblem`` for a name that matches no hole."""
    if not names:
        return list(holes)
    chosen = [h for h in holes if h.name in names or h.qualified in names or h.label in names]
    known = {n for h in holes for n in (h.name, h.qualified, h.label)}
    missing = [n for n in names if n not in known]
    if missing:
        listed = ", ".join(h.label for h in holes) or "none"
        raise BadProblem(f"no hole named {', '.join(missing)} (holes: {listed})")
    return chosen


def hole_problem_text(text: str, hole: Hole) -> str:
    """The file cut after ``hole`` with its sections and modules closed: the hole is its last lemma."""
    return text[: hole.end_end] + "\n" + closers(hole.scopes)


def _problem_for(text: str, hole: Hole, path: str, project: RocqProject | None = None):
    """The ``Problem`` of one hole; the kept partial script becomes part of its opening code.
    With ``project``: the hole's section context and most relevant earlier lemmas for the agents
    (``prover.premises``)."""
    from .problem import problem_from_text

    problem = problem_from_text(hole_problem_text(text, hole), "rocq", theorem=hole.name, path=path, name=hole.qualified)
    partial = text[hole.script_start : hole.end_start].strip()
    from lean_tools.rocq.project import project_admitted

    earlier = tuple(h.qualified for h in find_holes(text) if h.kind == "admitted" and h.end_end <= hole.decl_start)
    earlier += project_admitted()
    update: dict[str, object] = {"closers": closers(hole.scopes), "in_project": True, "assumed": earlier}
    if partial:
        update["declaration"] = problem.declaration.rstrip() + "\n" + partial
    if project is not None:
        from .premises import hole_context

        update["hole_context"] = hole_context(text, hole, project, problem.statement, path=path)
    return problem.model_copy(update=update)


def script_of(candidate: str, problem) -> tuple[str, str] | None:
    """(the tactic script a verified candidate adds to the hole, the ``Require`` sentences it put
    before the lemma), or None when the candidate changed anything else outside the hole's body
    (a helper lemma, an edited prefix)."""
    prefix = problem.header + problem.preamble
    if prefix and not prefix.endswith("\n"):
        prefix += "\n"
    opening = problem.declaration.rstrip() + "\nProof.\n"
    if not candidate.startswith(prefix) or opening not in candidate[len(prefix) :]:
        return None
    between, _, rest = candidate[len(prefix) :].partition(opening)
    if not _only_requires(between):
        return None
    end = rest.rfind("\nQed.\n")
    if end < 0:
        return None
    return rest[:end].strip("\n"), between.strip()


def _only_requires(text: str) -> bool:
    from lean_tools.rocq.parser import rocq_sentences
    from lean_tools.source import mask

    masked = mask(text, "rocq")
    return all(re.match(r"(?:From\s+\S+\s+)?Require\b", masked[s.start : s.end]) for s in rocq_sentences(masked))


def _compiles_without(text: str, hole: Hole, filled: str) -> bool:
    """Whether the file cut after the filled ``hole`` compiles as it stands (the proof needed no
    ``Require`` the file does not already make)."""
    from lean_tools.rocq.checker import RocqChecker

    end = hole.end_end + len(filled) - len(text)
    return RocqChecker().check_file(filled[:end] + "\n" + closers(hole.scopes), timeout=300).ok


def _prove_hole(req: FillRequest, text: str, hole: Hole, deadline: float, pool: Any) -> tuple[HoleResult, str]:
    """Prove one hole; (its result, the file text after it)."""
    from .api import prove

    t0 = time.monotonic()
    base = HoleResult(name=hole.label, kind=hole.kind, status="not_proved")
    if hole.kind == "admit":
        return base.model_copy(update={"reason": "admit. inside a finished proof is not filled yet"}), text
    if not hole.fillable:
        return base.model_copy(update={"reason": hole.unfillable_reason}), text
    remaining = deadline - time.monotonic()
    budget = min(remaining, req.hole_timeout_s) if req.hole_timeout_s else remaining
    if budget <= 1:
        return base.model_copy(update={"reason": "no time left in the command's budget"}), text
    problem = _problem_for(text, hole, req.path, req.project)
    result, cpu = None, 0.0
    # first under the global context; then, with what is left, resting on lemmas still admitted
    for assumed, share in (((), STRICT_SHARE if problem.assumed else 1.0), (problem.assumed, 1.0)):
        seconds = (budget - (time.monotonic() - t0)) * share
        if seconds <= 1 or (result is not None and (result.proved or not assumed)):
            break
        cfg = req.config.model_copy(update={"budget": req.config.budget.model_copy(update={"wall_s": seconds})})
        result = prove(problem.model_copy(update={"assumed": assumed}), cfg, pool=pool)
        cpu += result.spent.checker_cpu_s
    if result is None:
        return base.model_copy(update={"reason": "no time left in the command's budget"}), text
    spent = {"seconds": round(time.monotonic() - t0, 3), "checker_cpu_s": round(cpu, 3)}
    if not result.proved or not result.proof_text:
        return base.model_copy(update={"reason": result.reason, **spent}), text
    found = script_of(result.proof_text, problem)
    if found is None:
        reason = "the proof found needs a helper lemma outside the lemma's body"
        return base.model_copy(update={"reason": reason, **spent}), text
    script, requires = found
    filled = fill(text, hole, script)
    if requires and not _compiles_without(text, hole, filled):
        reason = f"the proof found needs {requires!r}, which the file does not load"
        return base.model_copy(update={"reason": reason, **spent}), text
    closed_by = _closed_by(result)
    return base.model_copy(update={"status": "proved", "proof": script, "closed_by": closed_by, "reason": result.reason, **spent}), filled


def _closed_by(result) -> str:
    sources = [lem.source for lem in result.lemmas if lem.source]
    if "cache" in result.reason or "cache" in sources:
        return "cache"
    if "hammer" in result.reason:
        return "hammer"
    return "agent" if result.mode == "agent" else "built-in search"


def fill_file(req: FillRequest, *, on_hole: Callable[[HoleResult], None] | None = None) -> FillReport:
    """Fill ``req``'s holes in file order, then judge the whole file in context."""
    from lean_tools.pool import SessionPool

    from .fill_verdict import judge

    holes = find_holes(req.text)
    chosen = choose(holes, req.theorems)
    deadline = time.monotonic() + req.config.budget.wall_s
    text = req.text
    results: list[HoleResult] = []
    with activate(req.project), SessionPool() as pool:
        for target in chosen:
            current = next(h for h in find_holes(text) if h.label == target.label)
            res, text = _prove_hole(req, text, current, deadline, pool)
            results.append(res)
            if on_hole is not None:
                on_hole(res)
        verdict = judge(req.text, text, results, req.project.root)
    return FillReport(
        file=req.path,
        project=req.project,
        holes=verdict.holes,
        text=verdict.text,
        verdict=verdict.summary,
        allowed_axioms=verdict.allowed_axioms,
    )
