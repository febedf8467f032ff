"""The state of the best-first search in one session (``prove_goal`` in ``search.py`` drives it).

``SessionSearch`` holds the queue of open nodes, the failing (goal, tactic) pairs, the goal
texts seen, the closers that timed out (for the second pass), the counters and the budget
clock; ``attempt``/``push``/``candidates`` are the search's steps. A search that restarts in a
new session after a candidate killed the old one (``SessionLost``) carries over what it learnt
by goal text (``before``). With a k-NN tactic source (``knn.py``) ``candidates`` puts the index's
suggestions between the registry's closers and steps. A tactic language model (``lm_source.py``)
is asked about a node in a queue entry of its own (``defer_model``), ranked as the children of
its proposals would be, so the cheap registry children nearer the top of the queue are expanded
before a model call is paid for.
"""

from __future__ import annotations

import dataclasses
import heapq
import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from lean_tools.types import ProofAssistantError, SessionCrashed, SessionOutOfMemory

from .goal import Candidate, Fact, ProblemContext, parse_goal, rocq_domain
from .knn import KNN_TAG, KnnSource, normalise
from .library import searched_candidates
from .lm_source import LM_COST, LM_TAG, LmSource
from .portfolio import Attempt, try_candidate
from .table import ROCQ, TacticTable

if TYPE_CHECKING:
    from .search import SearchBudget


@dataclass(order=True)
class Node:
    """An open node of the search: a proof state, its goals and the script that reached it.
    Nodes are ordered by ``priority`` (lower first), then by creation (``seq``)."""

    priority: float
    seq: int
    state: int
    goals: tuple[str, ...]
    script: tuple[str, ...]
    tags: tuple[str, ...]
    depth: int
    facts: tuple[Fact, ...] = field(default=(), compare=False)
    """What the candidates on the path recorded for later families (``goal.Fact``)."""
    taken: frozenset[str] | None = field(default=None, compare=False)
    """None for a node to expand. Otherwise this entry asks the tactic model about the node and
    nothing else (``SessionSearch.defer_model``): the normalised tactics its other sources proposed."""


def more_facts(old: tuple[Fact, ...], new: tuple[Fact, ...]) -> tuple[Fact, ...]:
    """The path's facts with a candidate's new ones appended (each fact once)."""
    return old + tuple(f for f in new if f not in old) if new else old


def goal_key(goals: tuple[str, ...]) -> str:
    """The goals' text with whitespace normalised: the key of failed pairs and seen states."""
    return "\n#\n".join(" ".join(g.split()) for g in goals)


class SessionLost(Exception):
    """A candidate killed the session (``run`` has recorded its tactic in ``SessionSearch.killers``)."""

    def __init__(self, tactic: str, error: ProofAssistantError) -> None:
        super().__init__(tactic)
        self.tactic = tactic
        self.error = error


class SessionSearch:
    """The search in one session: queue, failed pairs, seen goals, timed-out closers, counters
    and the budget clock (``before``: the search whose session a candidate killed)."""

    def __init__(self, session, table: TacticTable, budget: SearchBudget, header: str, statement: str, language: str, on_attempt=None,
                 before: SessionSearch | None = None, knn: KnnSource | None = None, lm: LmSource | None = None):
        self.on_attempt = on_attempt
        self.knn = knn
        """Tactics from the nearest-neighbour index (``knn.py``); None: off."""
        self.lm = lm
        """Tactics from the tactic language model (``lm_source.py``); None: off."""
        self.sources0 = self._source_seconds()
        self.ctx = ProblemContext.of(header, statement, language)
        self.s = session
        self.table = table
        self.budget = budget
        self.failed: set[tuple[str, str]] = set()
        self.seen: set[str] = set()
        self.heap: list[Node] = []
        self.timeouts: list[tuple[Node, Candidate]] = []
        """Closers that ran out of time, for the second pass."""
        self.seq = itertools.count()
        self.hammer_note = ""
        """How the last ``hammer`` call ended (``hammer: timeout`` ...), for the result's reason."""
        self.searched: dict[str, list[Candidate]] = {}
        """Library candidates found by ``Search`` per root goal."""
        self.attempts = 0
        self.expansions = 0
        self.expansions_before = 0
        """Expansions in earlier sessions of this search (lost to a candidate)."""
        self.session_seconds = 0.0
        self.t0 = time.monotonic()
        self.spent = 0.0
        """Budget seconds of earlier sessions of this search (``before``, on the CPU clock)."""
        self.killers: set[str] = set()
        """Tactics that killed a session of this search: not tried again on any goal."""
        if before is not None:  # a restart after a lost session: what is known by goal text carries over
            self.failed, self.searched, self.hammer_note = before.failed, before.searched, before.hammer_note
            self.killers = before.killers
            self.attempts, self.session_seconds = before.attempts, before.session_seconds
            # the new session expands its nodes afresh (failed pairs are skipped): the cap is per session
            self.expansions_before = before.expansions_before + before.expansions
            self.t0, self.spent = before.t0, before.used()
        self.cpu0 = self._cpu()

    def _cpu(self) -> float | None:
        if self.budget.clock != "cpu":
            return None
        cpu = getattr(self.s, "cpu_seconds", None)
        return float(cpu) if isinstance(cpu, (int, float)) else None

    def _source_seconds(self) -> float:
        """CPU seconds the k-NN index and the tactic model have spent so far (in this whole search;
        the index's wall seconds: a lookup waits on nothing)."""
        return (self.knn.seconds if self.knn is not None else 0.0) + (self.lm.cpu_seconds if self.lm is not None else 0.0)

    def used(self) -> float:
        """Budget seconds spent so far (CPU or wall, per ``budget.clock``)."""
        cpu = self._cpu()
        if cpu is not None and self.cpu0 is not None:  # the sources' Python time is not in the session's CPU
            return self.spent + cpu - self.cpu0 + self._source_seconds() - self.sources0
        return time.monotonic() - self.t0

    def left(self) -> float:
        now = time.monotonic()
        wall_left = self.budget.seconds * (self.budget.wall_factor if self.budget.clock == "cpu" else 1.0) - (now - self.t0)
        if self.budget.deadline is not None:
            wall_left = min(wall_left, self.budget.deadline - now)
        return min(self.budget.seconds - self.used(), wall_left)

    def out_of_budget(self) -> bool:
        return self.left() <= 0 or self.attempts >= self.budget.max_attempts

    def attempt(self, node: Node, cand: Candidate) -> Attempt | None:
        key = (goal_key(node.goals), cand.tactic)
        if key in self.failed or cand.tactic in self.killers:
            return None
        left = self.left()
        if cand.timeout > left + 0.5:
            cand = cand.model_copy(update={"timeout": max(1.0, left)})
        att = self.run(node, cand)
        if not att.ok:
            self.failed.add(key)
            if att.timed_out and cand.kind == "close" and cand.runner == "tactic":
                self.timeouts.append((node, cand))
            return None
        if not att.proved and goal_key(att.goals) == key[0]:
            self.failed.add(key)  # no progress
            return None
        return att

    def retries(self):
        """``(node, candidate)`` pairs of the second pass: timed-out closers, cheapest node first,
        each with its timeout multiplied by ``retry_factor`` (capped by the budget left)."""
        if self.budget.retry_factor <= 0:
            return
        for node, cand in sorted(self.timeouts, key=lambda nc: (nc[0].priority, nc[0].seq)):
            if self.out_of_budget():
                return
            t = min(cand.timeout * self.budget.retry_factor, max(1.0, self.left()))
            if t <= cand.timeout or cand.tactic in self.killers:
                continue
            yield node, cand.model_copy(update={"timeout": t})

    def run(self, node: Node, cand: Candidate) -> Attempt:
        """Run ``cand`` on ``node`` and count it (attempts, session seconds, ``on_attempt``)."""
        try:
            att = try_candidate(self.s, node.state, cand, self.table, goals_before=len(node.goals))
        except (SessionCrashed, SessionOutOfMemory) as e:
            self.attempts += 1
            self.killers.add(cand.tactic)
            raise SessionLost(cand.tactic, e) from e
        if cand.runner == "hammer":
            self.hammer_note = "hammer: proved" if att.ok else att.error
        self.attempts += 1
        self.session_seconds += att.seconds
        if cand.tag == KNN_TAG and self.knn is not None:
            self.knn.tried += 1
        if cand.tag == LM_TAG and self.lm is not None:
            self.lm.tried += 1
        if self.on_attempt is not None:
            self.on_attempt(att)
        return att

    def push(self, parent: Node, cand: Candidate, att: Attempt) -> None:
        k = goal_key(att.goals)
        closed_one = len(att.goals) < len(parent.goals)
        # Closing one goal of several is progress, not a level deeper: a conjunction of five
        # facts would otherwise spend the whole depth cap on its closers.
        depth = parent.depth if closed_one and cand.kind == "close" else parent.depth + 1
        if k in self.seen or depth > self.budget.max_depth:
            return
        self.seen.add(k)
        # a model turn was queued LM_COST above its node: its children rank from the node itself
        base = parent.priority - LM_COST if parent.taken is not None else parent.priority
        prio = base + cand.cost + 0.3 * len(att.goals) - (1.0 if closed_one else 0.0)
        prio += min(len(k), 4000) / 4000.0
        heapq.heappush(
            self.heap,
            Node(
                prio,
                next(self.seq),
                cast(int, att.state),  # an attempt that changed the goals has a state
                att.goals,
                (*parent.script, self.table.proof_line(att.replacement or cand)),
                (*parent.tags, cand.tag),
                depth,
                more_facts(parent.facts, cand.facts),
            ),
        )

    def library(self, node: Node) -> list[Candidate]:
        """Candidates from ``Search`` in the session on the root goal (``library.py``), once per
        goal; the queries' time counts as session time."""
        if self.table is not ROCQ or node.depth > 0 or self.left() < 1.0:
            return []  # the default Rocq table's family; a fixed or hand-made table gets none
        key = goal_key(node.goals[:1])
        if key not in self.searched:
            g = parse_goal(node.goals[0], "rocq")
            d = rocq_domain(g, self.ctx.scope)
            cands, spent, queries = searched_candidates(self.s, node.state, g, d, seconds=min(3.0, self.left()), ctx=self.ctx)
            self.session_seconds += spent
            self.attempts += queries
            self.searched[key] = cands
        return self.searched[key]

    def defer_model(self, node: Node, taken: set[str]) -> None:
        """Queue the tactic model's turn on ``node`` as an entry of its own, at the priority its
        proposals' children would start from (``LM_COST`` above the node): the model is asked
        only when the search has nothing cheaper left, as a child of that cost would be expanded."""
        heapq.heappush(self.heap, dataclasses.replace(node, priority=node.priority + LM_COST, seq=next(self.seq),
                                                      taken=frozenset(taken)))

    def candidates(self, node: Node) -> Iterator[Candidate]:
        """The node's candidates in the order they are tried: the registry's closers (and the
        library's), the k-NN suggestions, the steps. A generator: the caller stops iterating once
        a proof is accepted. The tactic model is not asked here: once the node's own candidates
        are tried, its turn is queued (``defer_model``), and popping that entry yields the
        model's proposals alone."""
        if node.taken is not None:
            if self.lm is not None and not self.out_of_budget() and self.lm.affordable(
                    self.left(), cpu=self.budget.clock == "cpu", total=self.budget.seconds):
                yield from self.lm.candidates(node.goals[0], len(node.goals) - 1, set(node.taken))
            return
        closers, steps = self.table.candidates(
            node.goals[0], node.depth, others=len(node.goals) - 1, ctx=self.ctx, facts=node.facts
        )
        found = self.library(node)
        closers += [c for c in found if c.kind == "close"]
        steps += [c for c in found if c.kind == "step"]
        if node.depth > 0:
            cap = self.budget.inner_timeout
            closers = [c if c.timeout <= cap else c.model_copy(update={"timeout": cap}) for c in closers]
        elif self.budget.root_timeout_scale != 1.0:
            scale = self.budget.root_timeout_scale
            closers = [c.model_copy(update={"timeout": c.timeout * scale}) for c in closers]
        if self.knn is None and self.lm is None:
            yield from closers + steps
            return
        taken = {normalise(c.tactic) for c in (*closers, *steps)}
        goal, others = node.goals[0], len(node.goals) - 1
        yield from closers
        if self.knn is not None:
            yield from self.knn.candidates(goal, others, taken)
        yield from steps
        if self.lm is not None:  # reached only when nothing here finished the goal
            self.defer_model(node, taken)
