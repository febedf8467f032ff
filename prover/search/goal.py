"""Goal reading, in one place: a printed goal split into hypotheses and conclusion
(``parse_goal``), the number domains in sight (``rocq_domain``), what the problem's header
tells beyond the goal (``ProblemContext``), and the record every family returns (``Candidate``).

What is covered: Rocq's ``h : T`` lines above a ``=====`` rule and Lean's ``⊢`` separator;
domains guessed from type names, casts, scope suffixes and the header's open scope.
Limits: parsing is line based and heuristic. A misparsed goal only costs a few useless
candidates, never a wrong proof: every proof is re-checked by a fresh checker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict

Kind = Literal["close", "step"]


class Candidate(BaseModel):
    """One tactic to try: ``tactic`` is the bare tactic text (no timeout wrapper, no final period)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tactic: str
    kind: Kind
    timeout: float = 2.0
    """Seconds the proof assistant may spend on it."""
    cost: float = 1.0
    """Prior cost added to a child's priority (lower is tried first)."""
    tag: str = ""
    """Family name used in statistics (``lia``, ``nra-hint``, ``rewrite-def`` ...)."""
    prelude: str = ""
    """Sentences run unwrapped before the tactic (Rocq: a ``Require`` the tactic needs)."""
    runner: Literal["tactic", "hammer", "replay"] = "tactic"
    """``hammer``: run CoqHammer on the state instead (``hammer.py``), the proof keeps its
    reconstruction; ``replay``: ``tactic`` is such a reconstruction, run as a whole sentence."""


@dataclass(frozen=True)
class Hyp:
    names: tuple[str, ...]
    type: str


@dataclass(frozen=True)
class GoalInfo:
    """A focused goal, as far as text can tell."""

    hyps: tuple[Hyp, ...]
    concl: str
    others: int = 0
    """Number of further goals after the focused one."""
    text: str = ""

    def vars_of(self, *types: str) -> list[str]:
        return [n for h in self.hyps if h.type.strip() in types for n in h.names]

    def hyp_names(self) -> list[str]:
        return [n for h in self.hyps for n in h.names]

    @property
    def all_text(self) -> str:
        return "\n".join(h.type for h in self.hyps) + "\n" + self.concl


_HYP_LINE = re.compile(r"^ {0,2}(?P<names>[^\s:,][^:]*?)\s*:\s(?P<type>.*)$")
_NAME = re.compile(r"^[A-Za-z_\u0370-\u03ff\u2080-\u209c'][\w'\u2080-\u209c\u0370-\u03ff]*$")


def parse_goal(text: str, language: str, others: int = 0) -> GoalInfo:
    """Split a printed goal into hypotheses and conclusion.

    Rocq prints ``h : T`` lines, then a ``=====`` rule, then the conclusion; Lean prints
    ``h : T`` lines then ``⊢ conclusion``. A hypothesis type may continue on more-indented lines.
    Text that has neither separator is treated as a bare conclusion.
    """
    lines = text.replace("\r", "").split("\n")
    sep = None
    for i, line in enumerate(lines):
        s = line.strip()
        if language == "rocq" and s.startswith("====="):
            sep = i
            break
        if language == "lean" and s.startswith("⊢"):
            sep = i
            break
    if sep is None:
        return GoalInfo(hyps=(), concl=text.strip(), others=others, text=text)
    if language == "rocq":
        concl = "\n".join(lines[sep + 1 :]).strip()
    else:
        concl = (lines[sep].strip()[1:] + "\n" + "\n".join(lines[sep + 1 :])).strip()
    hyps: list[Hyp] = []
    for line in lines[:sep]:
        if not line.strip() or re.match(r"^\d+ goals?", line.strip()):
            continue
        m = _HYP_LINE.match(line) if not line.startswith("    ") else None
        if m:
            names = tuple(n for n in re.split(r"[,\s]+", m.group("names")) if n)
            if names and all(_NAME.match(n) for n in names):
                hyps.append(Hyp(names=names, type=m.group("type").strip()))
                continue
        if hyps:  # continuation of the previous hypothesis' type
            last = hyps.pop()
            hyps.append(Hyp(names=last.names, type=last.type + " " + line.strip()))
    return GoalInfo(hyps=tuple(hyps), concl=concl, others=others, text=text)


@dataclass
class Domain:
    real: bool = False
    integer: bool = False
    natural: bool = False
    transcendental: bool = False
    division: bool = False
    closed: bool = False
    """No variables in sight: a computation may decide it."""
    flags: set[str] = field(default_factory=set)


_REAL_FUN = re.compile(r"\b(sqrt|ln|exp|Rpower|cos|sin|tan|PI|Rabs|powerRZ|atan|Rsqr)\b")


def rocq_domain(g: GoalInfo, scope: str = "") -> Domain:
    """Number domains in sight. ``scope`` is the header's open scope (``R_scope``, ``Z_scope``):
    a closed goal such as ``1/2 + 1/3 = 5/6`` carries no other sign of being about reals."""
    d = Domain()
    types = " ".join(h.type for h in g.hyps)
    text = g.all_text
    d.real = bool(re.search(r"\bR\b|\bINR\b|\bIZR\b|%R|\bRabs\b|\bsqrt\b|\bRpower\b", text + " " + types))
    d.integer = bool(re.search(r"\bZ\b|%Z|\bZ\.\w+", text))
    if scope == "C_scope":
        d.flags.add("C")
    d.real = d.real or (scope in ("R_scope", "C_scope") and not d.integer)
    d.integer = d.integer or (scope == "Z_scope" and not d.real)
    d.natural = bool(re.search(r"\bnat\b|%nat|\bNat\.\w+|\bS\b", text)) or not (d.real or d.integer)
    d.transcendental = bool(_REAL_FUN.search(text))
    d.division = bool(re.search(r"/(?!\\)", text.replace("\\/", "")))
    d.closed = not g.hyps
    return d


def open_scope(header: str) -> str:
    """The last ``Open Scope X_scope`` of a Rocq header ("" when none)."""
    found = re.findall(r"Open\s+Scope\s+(\w+)\s*\.", header)
    return found[-1] if found else ""



@dataclass(frozen=True)
class ProblemContext:
    """What the search knows about the problem beyond the goal text."""

    local_defs: tuple[str, ...] = ()
    """Names the header defines (unfold candidates)."""
    scope: str = ""
    """The header's open scope (Rocq), e.g. ``R_scope``."""
    big_numbers: tuple[str, ...] = ()
    """Numerals >= 5000 in the statement: Rocq prints them in ``nat`` as ``of_num_uint`` terms."""
    inductives: tuple[str, ...] = ()
    """``Inductive`` types the header declares (induction candidates, ``induction.py``)."""
    fixpoints: tuple = ()
    """The header's ``Fixpoint``s with their recursion depth (``induction.Fixpoint``)."""

    @classmethod
    def of(cls, header: str, statement: str, language: str) -> ProblemContext:
        if language == "lean":
            defs = tuple(re.findall(r"^\s*(?:noncomputable\s+)?def\s+([A-Za-z_][\w'.]*)", header, re.MULTILINE))
            return cls(local_defs=defs)
        defs = tuple(re.findall(r"^\s*(?:Definition|Fixpoint|Let)\s+([A-Za-z_][\w']*)", header, re.MULTILINE))
        big = tuple(sorted({n for n in re.findall(r"(?<![\w.])(\d{4,})(?![\w.])", statement) if int(n) >= 5000}))
        from .induction import header_fixpoints, header_inductives

        return cls(
            local_defs=defs, scope=open_scope(header), big_numbers=big, inductives=header_inductives(header), fixpoints=header_fixpoints(header)
        )
