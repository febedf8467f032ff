"""Best-first search over tactic candidates: the built-in default prover (no LLM needed).

Algorithm: open the statement in a warm session, run the table's intro tactic, then pop
the cheapest open node, try the table's closers on it (cheap ones first, each with its own
timeout), then its steps; every tactic that changes the goals makes a child node whose
priority is the parent's plus the candidate's prior cost plus a small penalty per open goal.
Failing (goal, tactic) pairs are cached; states whose goal text was seen are dropped.
When the queue is empty (or the expansion cap is hit) with budget left, a second pass retries
the closers that timed out, with ``retry_factor`` times their timeout, cheapest node first.
The first tactic-mode proof is re-checked by a fresh whole-file checker (``coqc``) before it
is reported; a proof the checker rejects is recorded and the search goes on.

Budget: ``SearchBudget.seconds`` bounds the time spent inside the session; attempts,
expansions and depth are capped too. ``checker_seconds`` in the result counts session time
plus the re-check's CPU time, the quantity the miniF2F comparison is made in.

Not covered here: the final soundness verdict (``lean_tools.soundness.verify``), which the
caller runs on the file this search proposes.
"""

from __future__ import annotations

import contextlib
import dataclasses
import heapq
import itertools
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, cast

from pydantic import BaseModel, ConfigDict

from lean_tools.types import ProofAssistantError, SessionCrashed, SessionOutOfMemory

from ..cache import ReconstructionCache
from .goal import Candidate, Fact, ProblemContext, parse_goal, rocq_domain
from .hammer import TACTICS_IMPORT, HammerSettings
from .library import searched_candidates
from .portfolio import Attempt, hammer_candidate, try_candidate
from .table import ROCQ, TacticTable, get_table, lean_statement


class SearchBudget(BaseModel):
    """Limits of one ``prove_goal`` call."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seconds: float = 5.0
    """Wall-clock seconds the search may spend in the session (the re-check is extra)."""
    max_attempts: int = 300
    max_expansions: int = 40
    max_depth: int = 5
    clock: Literal["wall", "cpu"] = "wall"
    """What ``seconds`` measures: wall-clock time in the session, or the session's CPU time
    (``cpu_seconds`` of sessions that report it; steadier on a loaded machine). With ``cpu``
    the wall-clock time is still capped at ``wall_factor * seconds``."""
    wall_factor: float = 4.0
    retry_factor: float = 4.0
    """When every node is expanded and budget is left, closers that timed out are tried once more
    with this factor on their timeout (cheapest node first); 0 turns the second pass off."""
    inner_timeout: float = 1.0
    """Cap on a closer's timeout below the root (whole seconds in Rocq)."""
    root_timeout_scale: float = 1.0
    """Factor on the closers' own timeouts at the root (a loaded machine may want more)."""
    recheck: bool = True
    """Re-check a found proof with a fresh whole-file checker (always on outside tests)."""
    recheck_timeout: float = 60.0
    start_timeout: float = 120.0
    """Seconds allowed for opening the statement (and loading the header in a new session)."""
    hammer: Literal["off", "fallback", "only"] = "fallback"
    """CoqHammer (``hammer.py``): ``fallback`` (default table only) runs ``hammer`` on the root goal (after the intro
    tactic) once the search has failed, if at least ``hammer_min_seconds`` of the budget are left;
    ``only`` runs nothing else (the ``hammer`` preset); ``off`` never. A reconstruction cached
    for the same header and goal is replayed first (seconds instead of the ATPs)."""
    hammer_seconds: float = 30.0
    """Limit of one ``hammer`` call (capped by the budget left)."""
    hammer_min_seconds: float = 15.0
    """Budget left below which the fallback does not start ``hammer`` (it rarely ends sooner)."""
    session_restarts: int = 2
    """A candidate that kills the session (``SessionCrashed``/``SessionOutOfMemory``, e.g.
    ``sauto`` on a goal with a large unary ``nat``) is not tried again in this search, on any
    goal, and the search starts again in a new session with what it learnt (failed pairs,
    counters, budget spent); at most this many times, then the loss ends the search as before
    (an infrastructure error)."""


class SearchResult(BaseModel):
    """Outcome of ``prove_goal``; ``proof`` goes between ``Proof.`` and ``Qed.`` / after ``:= by``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    proved: bool
    proof: str | None = None
    attempts: int = 0
    expansions: int = 0
    checker_seconds: float = 0.0
    wall_seconds: float = 0.0
    reason: str = ""
    """Why the search stopped: ``proved``, ``budget``, ``exhausted``, ``statement error: ...`` ..."""
    tags: tuple[str, ...] = ()
    """Families of the tactics in the proof found (for statistics)."""
    rejected: int = 0
    """Tactic-mode proofs the fresh checker rejected."""


@dataclass(order=True)
class _Node:
    priority: float
    seq: int
    state: int
    goals: tuple[str, ...]
    script: tuple[str, ...]
    tags: tuple[str, ...]
    depth: int
    facts: tuple[Fact, ...] = field(default=(), compare=False)
    """What the candidates on the path recorded for later families (``goal.Fact``)."""


def _more_facts(old: tuple[Fact, ...], new: tuple[Fact, ...]) -> tuple[Fact, ...]:
    """The path's facts with a candidate's new ones appended (each fact once)."""
    return old + tuple(f for f in new if f not in old) if new else old


def _goal_key(goals: tuple[str, ...]) -> str:
    return "\n#\n".join(" ".join(g.split()) for g in goals)


def render_file(header: str, statement_code: str, proof: str, language: str) -> str:
    """The whole file the fresh checker compiles."""
    if language == "rocq":
        return f"{header.rstrip()}\n\n{statement_code.strip()}\nProof.\n{proof}\nQed.\n"
    body = "\n".join("  " + line for line in proof.splitlines())
    return f"{header.rstrip()}\n\n{lean_statement(statement_code)} := by\n{body}\n"


def _default_checker(language: str):
    from lean_tools.assistant import assistant

    return assistant(language).checker()


@contextlib.contextmanager
def _open_session(source, language: str, header: str):
    """``source`` is a pool (has ``.session(language, header)``) or a factory ``header -> session``."""
    if hasattr(source, "session"):
        with source.session(language, header) as s:
            yield s
        return
    s = source(header)
    try:
        s.start()
        yield s
    finally:
        s.close()


class _SessionLost(Exception):
    """A candidate killed the session (``run`` has recorded its tactic in ``_Search.killers``)."""

    def __init__(self, tactic: str, error: ProofAssistantError) -> None:
        super().__init__(tactic)
        self.tactic = tactic
        self.error = error


class _Search:
    def __init__(self, session, table: TacticTable, budget: SearchBudget, header: str, statement: str, language: str, on_attempt=None,
                 before: _Search | None = None):
        self.on_attempt = on_attempt
        self.ctx = ProblemContext.of(header, statement, language)
        self.s = session
        self.table = table
        self.budget = budget
        self.failed: set[tuple[str, str]] = set()
        self.seen: set[str] = set()
        self.heap: list[_Node] = []
        self.timeouts: list[tuple[_Node, Candidate]] = []
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

    def used(self) -> float:
        """Budget seconds spent so far (CPU or wall, per ``budget.clock``)."""
        cpu = self._cpu()
        if cpu is not None and self.cpu0 is not None:
            return self.spent + cpu - self.cpu0
        return time.monotonic() - self.t0

    def left(self) -> float:
        wall_left = self.budget.seconds * (self.budget.wall_factor if self.budget.clock == "cpu" else 1.0) - (
            time.monotonic() - self.t0
        )
        return min(self.budget.seconds - self.used(), wall_left)

    def out_of_budget(self) -> bool:
        return self.left() <= 0 or self.attempts >= self.budget.max_attempts

    def attempt(self, node: _Node, cand: Candidate) -> Attempt | None:
        key = (_goal_key(node.goals), cand.tactic)
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
        if not att.proved and _goal_key(att.goals) == key[0]:
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

    def run(self, node: _Node, cand: Candidate) -> Attempt:
        """Run ``cand`` on ``node`` and count it (attempts, session seconds, ``on_attempt``)."""
        try:
            att = try_candidate(self.s, node.state, cand, self.table, goals_before=len(node.goals))
        except (SessionCrashed, SessionOutOfMemory) as e:
            self.attempts += 1
            self.killers.add(cand.tactic)
            raise _SessionLost(cand.tactic, e) from e
        if cand.runner == "hammer":
            self.hammer_note = "hammer: proved" if att.ok else att.error
        self.attempts += 1
        self.session_seconds += att.seconds
        if self.on_attempt is not None:
            self.on_attempt(att)
        return att

    def push(self, parent: _Node, cand: Candidate, att: Attempt) -> None:
        k = _goal_key(att.goals)
        closed_one = len(att.goals) < len(parent.goals)
        # Closing one goal of several is progress, not a level deeper: a conjunction of five
        # facts would otherwise spend the whole depth cap on its closers.
        depth = parent.depth if closed_one and cand.kind == "close" else parent.depth + 1
        if k in self.seen or depth > self.budget.max_depth:
            return
        self.seen.add(k)
        prio = parent.priority + cand.cost + 0.3 * len(att.goals) - (1.0 if closed_one else 0.0)
        prio += min(len(k), 4000) / 4000.0
        heapq.heappush(
            self.heap,
            _Node(
                prio,
                next(self.seq),
                cast(int, att.state),  # an attempt that changed the goals has a state
                att.goals,
                (*parent.script, self.table.proof_line(att.replacement or cand)),
                (*parent.tags, cand.tag),
                depth,
                _more_facts(parent.facts, cand.facts),
            ),
        )

    def library(self, node: _Node) -> list[Candidate]:
        """Candidates from ``Search`` in the session on the root goal (``library.py``), once per
        goal; the queries' time counts as session time."""
        if self.table is not ROCQ or node.depth > 0 or self.left() < 1.0:
            return []  # the default Rocq table's family; a fixed or hand-made table gets none
        key = _goal_key(node.goals[:1])
        if key not in self.searched:
            g = parse_goal(node.goals[0], "rocq")
            d = rocq_domain(g, self.ctx.scope)
            cands, spent, queries = searched_candidates(self.s, node.state, g, d, seconds=min(3.0, self.left()), ctx=self.ctx)
            self.session_seconds += spent
            self.attempts += queries
            self.searched[key] = cands
        return self.searched[key]

    def candidates(self, node: _Node) -> list[Candidate]:
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
        return closers + steps


def prove_goal(
    session_factory_or_pool,
    header: str,
    statement_code: str,
    language: str,
    budget: SearchBudget | None = None,
    *,
    checker=None,
    table: TacticTable | None = None,
    on_attempt: Callable[[Attempt], None] | None = None,
    reconstructions: ReconstructionCache | None = None,
) -> SearchResult:
    """Search for a tactic proof of ``statement_code`` under ``header``.

    ``on_attempt`` sees every attempt (statistics, tracing).
    ``session_factory_or_pool``: a ``SessionPool`` (``.session(language, header)``) or a
    callable ``header -> ProofSession``. The session is opened on ``header`` plus the table's
    imports. Returns ``proved=True`` only after the fresh checker accepted the whole file
    (unless ``budget.recheck`` is off). Infrastructure failures end the search with a reason;
    a candidate that kills the session is dropped and the search restarts in a new one
    (``SearchBudget.session_restarts``).
    ``reconstructions``: CoqHammer reconstructions found before (replayed before any ``hammer``
    call; new ones are stored). See ``SearchBudget.hammer`` for when the hammer runs.
    """
    t_start = time.monotonic()
    budget = budget or SearchBudget()
    table = table or get_table(language)
    # CoqHammer alone needs none of the table's libraries; without them (Lra loads the reals) its
    # feature extraction and premise selection run over the problem's own imports only.
    bare = budget.hammer == "only"
    session_header = header.rstrip() + ("\n" + table.imports if table.imports and not bare else "")
    checker = checker if checker is not None or not budget.recheck else _default_checker(language)
    acc: dict[str, float] = {"open_seconds": 0.0, "recheck_seconds": 0.0, "rejected": 0}
    search: _Search | None = None
    tree: dict = {"banked": 0.0}
    """Process-tree CPU where the session reports it (Rocq): the session now, its reading when the
    search began in it, and the CPU of the sessions before it (lost to a candidate)."""

    def tree_seconds() -> float | None:
        now = _tree_cpu(tree.get("s"))
        return None if now is None else tree["banked"] + max(0.0, now - tree["cpu0"])

    def result(proved: bool, reason: str, proof: str | None = None, tags: tuple[str, ...] = ()) -> SearchResult:
        searched = acc["open_seconds"] + (search.session_seconds if search else 0.0)  # wall, where no CPU is reported
        if (cpu := tree_seconds()) is not None:
            searched = cpu  # coqtop and the ATPs/csdp it ran, timed-out requests included
        return SearchResult(
            proved=proved,
            proof=proof,
            reason=reason,
            tags=tags,
            attempts=search.attempts if search else 0,
            expansions=search.expansions + search.expansions_before if search else 0,
            checker_seconds=searched + acc["recheck_seconds"],
            wall_seconds=time.monotonic() - t_start,
            rejected=int(acc["rejected"]),
        )

    def one_session(before: _Search | None) -> SearchResult:
        """The search in one session (``before``: the search whose session a candidate killed)."""
        nonlocal search
        with _open_session(session_factory_or_pool, language, session_header) as s:
            if (cpu0 := _tree_cpu(s)) is not None:
                tree["banked"] = tree_seconds() or tree["banked"]
                tree.update(s=s, cpu0=cpu0)
            t0 = time.monotonic()
            out = s.run_command(table.open_code(statement_code), timeout=budget.start_timeout)
            acc["open_seconds"] += time.monotonic() - t0
            if not out.ok:
                return result(False, f"statement error: {out.errors[0].text[:200]}")
            holes = [h for h in out.holes if h.state is not None]
            if not holes:
                return result(False, "statement opened no proof")
            search = _Search(s, table, budget, header, statement_code, language, on_attempt, before=before)
            root = _Node(0.0, next(search.seq), holes[0].state, tuple(out.goals) or (holes[0].goal,), (), (), 0)
            for tac in table.intro:
                att = search.attempt(root, Candidate(tactic=tac, kind="step", timeout=2, cost=0, tag="intro"))
                if att is not None:
                    line = table.proof_line(Candidate(tactic=tac, kind="step"))
                    root = _Node(0.0, root.seq, cast(int, att.state), att.goals, (line,), ("intro",), 0)
                    break
            if table is ROCQ:  # the registry's families read it; a fixed or hand-made table lists its own tactics
                t_probe = time.monotonic()
                search.ctx = dataclasses.replace(search.ctx, absent_tactics=absent_tactics(s, root.state))
                search.session_seconds += time.monotonic() - t_probe
            search.seen.add(_goal_key(root.goals))
            heapq.heappush(search.heap, root)
            def finish(node: _Node, cand: Candidate, att: Attempt | None = None) -> SearchResult | None:
                """A tactic-mode proof: the result once the fresh checker accepts it, else None."""
                kept = att.replacement if att is not None and att.replacement is not None else cand
                script, tags = (*node.script, table.proof_line(kept)), (*node.tags, cand.tag)
                proof = _render_proof(table, script)
                if not budget.recheck:
                    return result(True, "proved (not re-checked)", proof, tags)
                text = render_file(header, statement_code, proof, language)
                fc = checker.check_file(text, timeout=budget.recheck_timeout)
                acc["recheck_seconds"] += fc.cpu_seconds or fc.wall_seconds
                if _accepted(fc):
                    return result(True, "proved", proof, tags)
                acc["rejected"] += 1
                return None

            if budget.hammer == "only":
                search.heap.clear()
                if (done := _hammer_phase(search, root, header, reconstructions, finish)) is not None:
                    return done
            while search.heap and not search.out_of_budget() and search.expansions < budget.max_expansions:
                node = heapq.heappop(search.heap)
                search.expansions += 1
                for cand in search.candidates(node):
                    if search.out_of_budget():
                        break
                    att = search.attempt(node, cand)
                    if att is None:
                        continue
                    if not att.proved:
                        search.push(node, cand, att)
                        continue
                    if (done := finish(node, cand, att)) is not None:
                        return done
            for node, cand in search.retries():
                if search.run(node, cand).proved and (done := finish(node, cand)) is not None:
                    return done
            # the default Rocq table's fallback; a fixed or hand-made table gets only what it lists
            fallback = budget.hammer == "fallback" and table is ROCQ and search.left() >= budget.hammer_min_seconds
            if fallback and (done := _hammer_phase(search, root, header, reconstructions, finish)) is not None:
                return done
            why = "budget" if search.out_of_budget() or search.heap else "exhausted"
            return result(False, f"{why} ({search.hammer_note})" if search.hammer_note else why)

    lost: list[str] = []
    note = ""  # what the lost sessions were, for the reason
    while True:
        try:
            res = one_session(search)
        except _SessionLost as e:
            lost.append(f"{type(e.error).__name__} on {e.tactic[:60]!r}")
            note = f"{len(lost)} session(s) lost to candidates: {', '.join(lost)}"
            if search is not None and search.out_of_budget():
                return result(False, f"budget ({note})")
            if len(lost) > budget.session_restarts:
                return result(False, f"{_error_line(e.error)} ({note})")
            continue
        except ProofAssistantError as e:
            return result(False, _error_line(e))
        if note and not res.proved:
            res = res.model_copy(update={"reason": f"{res.reason} ({note})"})
        return res


def _error_line(e: ProofAssistantError) -> str:
    """``Name: first line of the message`` (at most 200 characters of it), for a reason."""
    first = str(e).splitlines()[0][:200] if str(e) else ""
    return f"{type(e).__name__}: {first}"


def _tree_cpu(session) -> float | None:
    """CPU seconds of the session's whole process tree so far (``RocqSession.process_cpu_seconds``:
    coqtop and the children it waited for, CoqHammer's ATPs included), None where not reported."""
    cpu = getattr(session, "process_cpu_seconds", None)
    return float(cpu) if isinstance(cpu, (int, float)) and not isinstance(cpu, bool) else None


PROBED_TACTICS = ("ring", "field")
"""Closers that the families name but that only some libraries define (``ProblemContext.absent_tactics``)."""


def absent_tactics(session, state: int) -> tuple[str, ...]:
    """The ``PROBED_TACTICS`` a Rocq session does not know on ``state``. ``try (fail; T)`` never
    runs ``T``, but Rocq resolves the name first: it errs exactly when ``T`` is unknown. A probe
    that cannot run counts the tactic as known (a wrong guess costs failed candidates, no proof)."""
    out = []
    for tac in PROBED_TACTICS:
        try:
            res = session.run_tactic(state, f"try (fail; {tac}).", timeout=2)
        except ProofAssistantError:
            continue
        if not res.ok and any("was not found" in m.text for m in res.errors):
            out.append(tac)
    return tuple(out)


def _hammer_phase(search: _Search, root: _Node, header: str, cache: ReconstructionCache | None, finish) -> SearchResult | None:
    """CoqHammer on the root goal: a cached reconstruction replayed first, else ``hammer``
    under what is left of the budget (at most ``hammer_seconds``); its reconstruction is
    stored once the fresh checker accepted the proof."""
    budget = search.budget
    goal = root.goals[0] if root.goals else ""
    if cache is not None and goal:
        for recon in cache.get(header, goal):
            keep = Candidate(tactic=recon, kind="close", prelude=TACTICS_IMPORT, timeout=10, tag="hammer-cached", runner="replay")
            att = search.attempt(root, keep)
            if att is not None and att.proved and (done := finish(root, keep)) is not None:
                return done
    seconds = min(budget.hammer_seconds, search.left())
    if seconds < 5:
        return None
    cand = hammer_candidate(HammerSettings(seconds=seconds))
    att = search.attempt(root, cand)
    if att is None or not att.proved:
        return None
    done = finish(root, cand, att)
    if done is not None and cache is not None and goal and att.replacement is not None:
        cache.put(header, goal, att.replacement.tactic)
    return done


_REQUIRE = re.compile(r"(?:From[ \t]+\w+[ \t]+)?Require[ \t]+(?:Import[ \t]+|Export[ \t]+)?[\w.]+?(?:[ \t]+[\w.]+?)*[ \t]*\.(?=\s|$)")


def hoist_requires(proof: str) -> tuple[str, str]:
    """Split a Rocq proof into (``Require`` sentences, the rest) so that a caller can put the
    imports above the theorem instead of inside the proof (Coq 8.16 accepts both)."""
    requires = [m.group(0) for m in _REQUIRE.finditer(proof)]
    rest = _REQUIRE.sub("", proof)
    lines = [line.strip() for line in rest.splitlines()]
    return "\n".join(requires), "\n".join(line for line in lines if line)


def _accepted(fc) -> bool:
    """The fresh check passed. ``FileCheck.ok`` alone is not used: the sandbox flags any
    output containing "stack overflow" as out-of-memory, and Coq's harmless warning about
    large ``nat`` numerals says exactly that; a run that exited 0 with no error and no
    timeout was not killed for memory."""
    return fc.ok or (fc.returncode == 0 and not fc.errors and not fc.timed_out)


def _render_proof(table: TacticTable, script: tuple[str, ...]) -> str:
    """The proof text: every import first (the table's, then a step's own ``Require`` prelude
    such as CoqHammer's Tactics), so that callers can strip or hoist them as one block."""
    lines = [table.imports] if table.imports else []
    body = []
    for line in script:
        requires, rest = hoist_requires(line)
        lines += [r for r in requires.splitlines() if r and r not in lines]
        body += [rest] if rest else []
    return "\n".join(lines + body)
