"""What a search family is: a small function from the focused goal to candidates, registered
with a name (used in traces and statistics), a domain (the module it lives in) and a stage
(``close``: tactics expected to finish the goal; ``step``: tactics that transform it).

A family reads the goal through ``Focus`` (the parsed goal, its number domains, the problem's
context, the search depth and the facts earlier families left on the path) and returns
``Candidate`` records; it never runs anything. Its docstring says the goal shape it answers and
why the candidates should work there. The order of the families is the registry's
(``registry.py``), not the modules'.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from .goal import Candidate, Domain, Fact, GoalInfo, ProblemContext

Stage = Literal["close", "step"]


@dataclass(frozen=True)
class Focus:
    """The focused goal as the families see it."""

    g: GoalInfo
    d: Domain
    ctx: ProblemContext
    depth: int
    """Search depth of the node (0: the root goal after the intro tactic)."""
    facts: tuple[Fact, ...] = ()
    """Facts the candidates on the path to this node recorded (``goal.Fact``)."""

    @property
    def root(self) -> bool:
        return self.depth == 0

    @property
    def concl(self) -> str:
        return self.g.concl

    def facts_of(self, kind: type) -> list:
        """The facts of one type, oldest first."""
        return [f for f in self.facts if isinstance(f, kind)]


@dataclass(frozen=True)
class Family:
    """A registered family: ``fn`` answers goals of the shape its docstring describes."""

    name: str
    domain: str
    stage: Stage
    fn: Callable[[Focus], list[Candidate]]

    def __call__(self, f: Focus) -> list[Candidate]:
        return self.fn(f)

    @property
    def doc(self) -> str:
        """The first paragraph of the family's docstring (what ``--explain`` prints)."""
        return (self.fn.__doc__ or "").strip().split("\n\n")[0]


def family(name: str, domain: str, stage: Stage) -> Callable[[Callable[[Focus], list[Candidate]]], Family]:
    """Decorator: the function as a ``Family`` record (nothing is registered globally; the
    registry lists families explicitly, in the order they are tried)."""

    def wrap(fn: Callable[[Focus], list[Candidate]]) -> Family:
        if not (fn.__doc__ or "").strip():
            raise ValueError(f"family {name!r} needs a docstring saying the goal shape it answers")
        return Family(name=name, domain=domain, stage=stage, fn=fn)

    return wrap


def close(tactic: str, timeout: float = 1.0, cost: float = 0.0, tag: str = "", **extra) -> Candidate:
    """A closer; its tag defaults to the tactic's first word."""
    return Candidate(tactic=tactic, kind="close", timeout=timeout, cost=cost, tag=tag or tactic.split()[0], **extra)


def step(tactic: str, cost: float = 1.0, timeout: float = 1.0, tag: str = "", **extra) -> Candidate:
    """A step; its tag defaults to the tactic's first word."""
    return Candidate(tactic=tactic, kind="step", timeout=timeout, cost=cost, tag=tag or tactic.split()[0], **extra)
