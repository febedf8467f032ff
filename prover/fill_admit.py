"""Filling the ``admit.`` holes of a Rocq proof (``lean_tools.rocq.holes``, kind ``admit``).

The goal at the k-th ``admit.`` is the state after the script's sentences before it, inside its
bullet or brace. It is read from Rocq, not guessed: a probe file, the file cut at the ``admit.``
followed by Ltac that prints each hypothesis (name, type, body of a ``set``) and the
conclusion, runs in a sandboxed ``coqc`` with the project's flags; after ``Abort.`` a
``Goal True.`` prints the section variables in scope, which every proof context holds already.

That goal becomes an auxiliary problem placed where the lemma stands (same sections, same
earlier lemmas): ``Lemma <name>_admitK (x : T) (m : T := v) ... : concl.``, binders in the
context's order with the context's names, so a script that proves it runs unchanged at the
``admit.``. The auxiliary lemma exists only in the problem the prover works on; the file gets the
script alone, as one ``{ ... }`` block in place of ``admit.`` (``lean_tools.rocq.holes.fill``),
which focuses exactly that goal and must close it.

The ``admit.``s of one proof are proved together: the scripts are written only when every
``admit.`` of the proof is proved (its ``Admitted.`` then becomes ``Qed.``) and the file cut after
the lemma compiles with them. Otherwise the lemma is left as it was: each ``admit.`` whose goal
was proved is reported ``not_proved`` with its script in ``proof`` and the reason (which
``admit.``s of the proof are still open). The verdict (``prover.fill_verdict``) judges the whole
file afterwards, as for every hole.

Not covered: a goal with existential variables, or a section variable whose hypothesis the
proof changed before the ``admit.``, cannot be restated (reported with the reason); a restated
goal that reads back differently (notations, implicit arguments) fails where it is written and
is reported ``not_proved``.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from lean_tools.rocq.holes import Hole, closers, fill, find_holes, hole_labelled

from .records import HoleResult

if TYPE_CHECKING:
    from .fill import FillRequest, Requires

_MARK = "PROVER-ADMIT-"
_PROBE = (
    "Set Printing Width 4000. "
    f'idtac "{_MARK}BEGIN"; '
    f'try (match reverse goal with H : ?T |- _ => idtac "{_MARK}HYP" H "|" T; fail end); '
    f'try (match reverse goal with H := ?v : _ |- _ => idtac "{_MARK}DEF" H "|" v; fail end); '
    f'match goal with |- ?G => idtac "{_MARK}GOAL" G end.\n'
    "Abort.\n"
    f'Goal True. try (match reverse goal with H : ?T |- _ => idtac "{_MARK}SEC" H "|" T; fail end). '
    f'idtac "{_MARK}END". Abort.\n'
)


class Hyp(BaseModel):
    """One hypothesis of the goal at an ``admit.``, as Rocq printed it."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    type: str
    body: str | None = None
    """The value of a local definition (``set``/``pose``), else None."""


class AdmitGoal(BaseModel):
    """The goal at an ``admit.``: its context in order, its conclusion, the section variables."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    hyps: tuple[Hyp, ...]
    conclusion: str
    section: tuple[Hyp, ...] = ()


def probe_text(text: str, hole: Hole) -> str:
    """The file cut at ``hole``'s ``admit.``, then the probe (module docstring) and the closers."""
    return text[: hole.end_start] + "\n" + _PROBE + closers(hole.scopes)


def read_probe(stdout: str) -> AdmitGoal | str:
    """The goal the probe printed, or why it could not be read."""
    entries: list[tuple[str, str]] = []
    for line in stdout.splitlines():
        if line.startswith(_MARK):
            kind, _, rest = line[len(_MARK) :].partition(" ")
            entries.append((kind, rest))
        elif entries and entries[-1][0] not in ("BEGIN", "END"):
            entries[-1] = (entries[-1][0], entries[-1][1] + " " + line.strip())
    kinds = [k for k, _ in entries]
    if "GOAL" not in kinds or "END" not in kinds:
        return "the goal at the admit. could not be read"
    split = [(k, *_name_and_term(v)) for k, v in entries if k in ("HYP", "DEF", "SEC")]
    bodies = {n: t for k, n, t in split if k == "DEF"}
    hyps = tuple(Hyp(name=n, type=t, body=bodies.get(n)) for k, n, t in split if k == "HYP")
    section = tuple(Hyp(name=n, type=t) for k, n, t in split if k == "SEC")
    goal = next(v for k, v in entries if k == "GOAL").strip()
    return AdmitGoal(hyps=hyps, conclusion=goal, section=section)


def _name_and_term(rest: str) -> tuple[str, str]:
    name, _, term = rest.partition(" | ")
    return name.strip(), term.strip()


def statement(goal: AdmitGoal, name: str) -> str | None:
    """``Lemma name binders : conclusion.`` for ``goal``, or None when it cannot be restated
    (existential variables; a section variable whose hypothesis the proof changed)."""
    if re.search(r"\?[A-Za-z_]", " ".join([goal.conclusion, *(h.type + " " + (h.body or "") for h in goal.hyps)])):
        return None
    section = {h.name: h.type for h in goal.section}
    binders = []
    for h in goal.hyps:
        if h.name in section:
            if section[h.name] != h.type or h.body is not None:
                return None
            continue  # in every proof context of the section already
        binders.append(f"({h.name} : {h.type} := {h.body})" if h.body is not None else f"({h.name} : {h.type})")
    return f"Lemma {name}{''.join(' ' + b for b in binders)} :\n  {goal.conclusion}."


def goal_at(text: str, hole: Hole) -> AdmitGoal | str:
    """The goal at ``hole``'s ``admit.`` in ``text`` (a ``coqc`` run with the active project's flags)."""
    from lean_tools.rocq.checker import compile_and_query

    runs = compile_and_query({"Probe.v": probe_text(text, hole)}, ["Probe.v"], timeout=300)
    if not runs or runs[0].returncode != 0 or runs[0].timed_out:
        tail = " ".join((runs[0].stdout + runs[0].stderr).split())[-300:] if runs else "coqc did not run"
        return f"the script before the admit. does not run: {tail}"
    return read_probe(runs[0].stdout)


def aux_name(text: str, hole: Hole) -> str:
    """A name for the auxiliary lemma that ``text`` does not use."""
    name = f"{hole.name}_admit{hole.index + 1}"
    while re.search(rf"(?<![\w']){re.escape(name)}(?![\w'])", text):
        name += "_"
    return name


def aux_text(text: str, hole: Hole, lemma: str) -> str:
    """The file up to ``hole``'s lemma, the auxiliary ``lemma`` admitted, the closers."""
    return text[: hole.decl_start] + lemma + "\nProof.\nAdmitted.\n" + closers(hole.scopes)


@dataclass(frozen=True)
class FillSteps:
    """What an ``admit.`` hole borrows from ``prover.fill`` (passed in, so that this module never
    imports it): ``search_hole`` proves an admitted lemma of a text, ``splice`` writes a proof
    into the file and checks it."""

    search_hole: Callable[..., Any]
    splice: Callable[..., tuple[str | None, str]]


def _prove_one(
    req: FillRequest, text: str, hole: Hole, deadline: float, pool: Any, steps: FillSteps
) -> tuple[HoleResult, tuple[str, ...]]:
    """The goal at one ``admit.`` proved as its auxiliary problem: (the result, its ``Require``s)."""
    t0 = time.monotonic()
    base = HoleResult(name=hole.label, kind="admit", status="not_proved")
    if not hole.fillable:
        return base.model_copy(update={"reason": hole.unfillable_reason}), ()
    goal = goal_at(text, hole)
    if isinstance(goal, str):
        return base.model_copy(update={"reason": goal, "seconds": round(time.monotonic() - t0, 3)}), ()
    name = aux_name(text, hole)
    lemma = statement(goal, name)
    if lemma is None:
        reason = "the goal at the admit. cannot be restated (existential variables, or a changed section variable)"
        return base.model_copy(update={"reason": reason}), ()
    aux = aux_text(text, hole, lemma)
    aux_hole = next(h for h in find_holes(aux) if h.name == name)
    found = steps.search_hole(req, aux, aux_hole, deadline, pool)
    if isinstance(found, HoleResult):
        return base.model_copy(update={"reason": found.reason, "seconds": found.seconds, "checker_cpu_s": found.checker_cpu_s}), ()
    result = found.result.model_copy(update={"name": hole.label, "kind": "admit", "seconds": round(time.monotonic() - t0, 3)})
    return result, found.requires


def prove_admits(
    req: FillRequest, text: str, group: Sequence[Hole], deadline: float, pool: Any, state: Requires, steps: FillSteps
) -> tuple[list[HoleResult], str]:
    """Prove the chosen ``admit.``s of one proof (``group``, file order); (their results, the file
    after them). The scripts are written only when every ``admit.`` of the proof is proved."""
    results: list[HoleResult] = []
    requires: list[str] = []
    for target in group:
        res, needs = _prove_one(req, text, hole_labelled(text, target.label), deadline, pool, steps)
        results.append(res)
        requires += [r for r in needs if r not in requires]
    every = [h for h in find_holes(text) if h.kind == "admit" and h.qualified == group[0].qualified]
    proved = {r.name: r.proof or "" for r in results if r.status == "proved"}
    open_ = [h.label for h in every if h.label not in proved]
    if open_:
        why = f"written only with the rest of the proof: {', '.join(open_)} not proved, the lemma is left as it was"
        return [r.model_copy(update={"status": "not_proved", "reason": why}) if r.status == "proved" else r for r in results], text

    scripts = [proved[h.label] for h in every]

    def write(t: str) -> str:
        for k in reversed(range(len(scripts))):  # the last first: the earlier ones keep their labels
            t = fill(t, hole_labelled(t, every[k].label), scripts[k])
        return t

    last = every[-1]
    filled, reason = steps.splice(text, last, write, requires, state, check=True)
    if filled is None:
        return [r.model_copy(update={"status": "not_proved", "reason": reason}) for r in results], text
    return results, filled
