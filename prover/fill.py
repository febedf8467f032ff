"""Fill the holes of a Rocq file inside its project, in file order.

``fill_file(request) -> FillReport``. For each chosen hole (``lean_tools.rocq.holes``): the file
as it stands (earlier holes already filled, so their lemmas are usable) is cut after the hole,
its open sections and modules are closed, and the prover (``prover.api.prove``: the built-in
search, the hammer, agents when a model is configured) proves that one lemma with the project's
load path active. A proof found is spliced into the hole's body only: every byte outside the
filled bodies stays as it was. A partial script before ``Admitted.`` is kept and the search
continues from the state after it.

The holes share one session pool, and the search's session for a hole loads the file's text up
to it (the allowed imports run with the statement), so each hole's header extends the one
before: one warm ``coqtop`` walks the file, going back to the state after the previous hole's
header and running only the text in between (``lean_tools.pool``,
``RocqSession.extend_header``), instead of executing the whole prefix again for each hole.

The whole result is then judged in context (``prover.fill_verdict``): it compiles in a fresh
sandboxed ``coqc`` with the project's flags, each filled body passes the proof screens, and each
filled lemma's ``Print Assumptions`` lists only the standard whitelist plus the axioms the
project itself declares; a lemma that rests on a hole still admitted is ``proved_assuming``.

``admit.`` holes are proved as the goal at each ``admit.`` and written together per proof
(``prover.fill_admit``). A proof that needs a library the file does not load is passed over,
unless ``FillRequest.allow_require``: then its ``Require`` line is added (``splice``).

Not covered: helper lemmas an agent wants outside the body are not written (the hole is
reported ``not_proved`` with the reason).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict

from lean_tools.rocq.holes import (
    Hole,
    after_requires,
    closers,
    fill,
    find_holes,
    hole_labelled,
    insert_requires,
    requires_point,
)
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
    allow_require: bool = False
    """A proof may need a library the file does not load (the search's own ``Require``s: ``Lia``,
    ``Lra``, ``Psatz``, ``Hammer.Tactics``): its line is added to the file (``requires_point``)
    and reported. Off: such a proof is passed over."""


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

    earlier = tuple(h.qualified for h in find_holes(text) if h.admitted_lemma and h.index == 0 and h.term_end <= hole.decl_start)
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


class Found(BaseModel):
    """A script the prover found for one hole, before it is written into the file."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    result: HoleResult
    """``proved``, with ``proof`` the script, ``closed_by``, the time spent."""
    requires: tuple[str, ...] = ()
    """``Require`` sentences the candidate put before the lemma (the search's own libraries)."""


@dataclass
class Requires:
    """The ``Require`` lines a fill may add (``FillRequest.allow_require``) and those it added."""

    allow: bool
    point: int
    """``requires_point`` of the original file: where the added lines go."""
    added: list[str] = field(default_factory=list)


def search_hole(req: FillRequest, text: str, hole: Hole, deadline: float, pool: Any) -> Found | HoleResult:
    """Prove the lemma of ``hole`` (an ``admitted`` hole of ``text``): the script found, or the
    ``not_proved`` result with the reason."""
    from .api import prove

    t0 = time.monotonic()
    base = HoleResult(name=hole.label, kind=hole.kind, status="not_proved")
    remaining = deadline - time.monotonic()
    budget = min(remaining, req.hole_timeout_s) if req.hole_timeout_s else remaining
    if budget <= 1:
        return base.model_copy(update={"reason": "no time left in the command's budget"})
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
        return base.model_copy(update={"reason": "no time left in the command's budget"})
    spent = {"seconds": round(time.monotonic() - t0, 3), "checker_cpu_s": round(cpu, 3)}
    if not result.proved or not result.proof_text:
        return base.model_copy(update={"reason": result.reason, **spent})
    found = script_of(result.proof_text, problem)
    if found is None:
        reason = "the proof found needs a helper lemma outside the lemma's body"
        return base.model_copy(update={"reason": reason, **spent})
    script, requires = found
    proved = {"status": "proved", "proof": script, "closed_by": _closed_by(result), "reason": result.reason, **spent}
    return Found(result=base.model_copy(update=proved), requires=tuple(_sentences(requires)))


def _sentences(text: str) -> list[str]:
    from lean_tools.rocq.parser import rocq_sentences
    from lean_tools.source import mask

    masked = mask(text, "rocq")
    return [" ".join(text[s.start : s.end].split()) for s in rocq_sentences(masked)]


def _compiles(text: str) -> str | None:
    """None when ``text`` compiles, else coqc's first error, one line."""
    from lean_tools.rocq.checker import RocqChecker

    fc = RocqChecker().check_file(text, timeout=300)
    if fc.ok:
        return None
    first = next((m for m in fc.messages if m.severity.name == "ERROR"), None)
    return " ".join((first.text if first is not None else fc.stderr_tail.strip()[-300:]).split())[:300]


def splice(
    text: str, hole: Hole, write: Callable[[str], str], requires: Sequence[str], state: Requires, *, check: bool
) -> tuple[str | None, str]:
    """(``write(text)``, "") when the file cut after ``hole``'s lemma compiles with it, or
    (None, the reason). ``check``: compile even when the proof needs no ``Require`` (the search
    did not check the script where it is written). A proof that needs a library the file does
    not load gets its ``Require`` line (``requires_point``) when ``state.allow``; the whole file
    must then compile, and the line is recorded in ``state.added``."""
    tail = len(text) - hole.term_end if hole.kind == "admit" else len(text) - hole.end_end
    filled = write(text)
    if not check and not requires:
        return filled, ""
    cut = filled[: len(filled) - tail] + "\n" + closers(hole.scopes)
    error = _compiles(cut)
    if error is None:
        return filled, ""
    if not requires:
        return None, f"the proof does not compile where it is written: {error}"
    needed = " ".join(requires)
    if not state.allow:
        return None, f"the proof found needs {needed!r}, which the file does not load (--allow-require adds it)"
    return _with_requires(text, write, requires, state, error)


def _with_requires(text: str, write: Callable[[str], str], requires: Sequence[str], state: Requires, error: str) -> tuple[str | None, str]:
    """The filled file with the fewest of the search's ``Require`` lines that make it compile."""
    at = after_requires(state.point, state.added)
    chosen: list[str] = []
    for k, sentence in enumerate(requires):
        rest = list(requires[k + 1 :])
        for option in ["", *_single_modules(sentence), sentence]:  # "": this sentence is not needed
            if (option and (option in state.added or option in chosen)) or not (option or chosen or rest):
                continue  # in the file already and not enough; or nothing at all, which failed
            trial = write(insert_requires(text, [*chosen, *([option] if option else []), *rest], at))
            if _compiles(trial) is None:
                chosen += [option] if option else []
                break
        else:
            return None, f"the proof does not compile even with {' '.join(requires)!r}: {error}"
    filled = write(insert_requires(text, chosen, at))
    state.added += chosen
    return filled, ""


def _single_modules(sentence: str) -> list[str]:
    """``From X Require Import A B.`` -> ``From X Require Import A.``, ``... B.`` (one module each)."""
    m = re.fullmatch(r"(From\s+\S+\s+Require\s+(?:Import|Export)\s+)(.+)\.", sentence)
    if m is None or len(m.group(2).split()) < 2:
        return []
    return [f"{m.group(1)}{mod}." for mod in m.group(2).split()]


def _prove_hole(req: FillRequest, text: str, hole: Hole, deadline: float, pool: Any, state: Requires) -> tuple[HoleResult, str]:
    """Prove one ``admitted`` hole; (its result, the file text after it)."""
    if not hole.fillable:
        return HoleResult(name=hole.label, kind=hole.kind, status="not_proved", reason=hole.unfillable_reason), text
    found = search_hole(req, text, hole, deadline, pool)
    if isinstance(found, HoleResult):
        return found, text
    script = found.result.proof or ""
    filled, reason = splice(text, hole, lambda t: fill(t, hole_labelled(t, hole.label), script), found.requires, state, check=False)
    if filled is None:
        return found.result.model_copy(update={"status": "not_proved", "reason": reason}), text
    return found.result, filled


def _closed_by(result) -> str:
    sources = [lem.source for lem in result.lemmas if lem.source]
    if "cache" in result.reason or "cache" in sources:
        return "cache"
    if "hammer" in result.reason:
        return "hammer"
    return "agent" if result.mode == "agent" else "built-in search"


def fill_file(req: FillRequest, *, on_hole: Callable[[HoleResult], None] | None = None) -> FillReport:
    """Fill ``req``'s holes in file order, then judge the whole file in context. The ``admit.``s
    of one proof are proved together (``prover.fill_admit``)."""
    from lean_tools.pool import SessionPool

    from .fill_admit import FillSteps, prove_admits
    from .fill_verdict import judge

    holes = find_holes(req.text)
    chosen = choose(holes, req.theorems)
    allowed = req.config.prover.allowed_requires
    if req.allow_require and "Hammer.Tactics" not in allowed:  # the search's hammer and hauto steps need it
        prover = req.config.prover.model_copy(update={"allowed_requires": (*allowed, "Hammer.Tactics")})
        req = req.model_copy(update={"config": req.config.model_copy(update={"prover": prover})})
    deadline = time.monotonic() + req.config.budget.wall_s
    text = req.text
    state = Requires(allow=req.allow_require, point=requires_point(req.text))
    results: list[HoleResult] = []
    with activate(req.project), SessionPool() as pool:
        for group in _groups(chosen):
            if group[0].kind == "admit":
                done, text = prove_admits(req, text, group, deadline, pool, state, FillSteps(search_hole, splice))
            else:
                res, text = _prove_hole(req, text, hole_labelled(text, group[0].label), deadline, pool, state)
                done = [res]
            results += done
            if on_hole is not None:
                for res in done:
                    on_hole(res)
        verdict = judge(req.text, text, results, req.project.root, tuple(state.added))
    return FillReport(
        file=req.path,
        project=req.project,
        holes=verdict.holes,
        text=verdict.text,
        verdict=verdict.summary,
        allowed_axioms=verdict.allowed_axioms,
        requires_added=verdict.requires_added,
    )


def _groups(chosen: Sequence[Hole]) -> list[list[Hole]]:
    """The chosen holes in file order, the ``admit.``s of one proof together."""
    groups: list[list[Hole]] = []
    for h in chosen:
        if groups and h.kind == "admit" and groups[-1][0].kind == "admit" and groups[-1][0].decl_start == h.decl_start:
            groups[-1].append(h)
        else:
            groups.append([h])
    return groups
