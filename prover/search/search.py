"""Best-first search over tactic candidates: the built-in default prover (no LLM needed).

Algorithm: open the statement in a warm session, run the table's intro tactic, then pop
the cheapest open node, try the table's closers on it (cheap ones first, each with its own
timeout), then its steps; every tactic that changes the goals makes a child node whose
priority is the parent's plus the candidate's prior cost plus a small penalty per open goal.
Failing (goal, tactic) pairs are cached; states whose goal text was seen are dropped.
With ``SearchBudget.knn_index`` set, a nearest-neighbour index over library proofs (``knn.py``)
adds up to ``knn_k`` tactics per node, tried after the closers and before the steps; with
``SearchBudget.lm_model`` set, a tactic language model (``lm_source.py``) is asked for up to
``lm_k`` more in a queue entry of its own (a model turn, ``frontier.SessionSearch.defer_model``),
ranked where its proposals' children would start (on at most ``lm_max_calls`` goals per search).
Turns are not expansions: once the expansion cap is hit, the queued turns still run.
When the queue is empty (or the expansion cap is hit and no turn is left) with budget left, a
second pass retries the closers that timed out, with ``retry_factor`` times their timeout,
cheapest node first.
The first tactic-mode proof is re-checked by a fresh whole-file checker (``coqc``) before it
is reported; a proof the checker rejects is recorded and the search goes on.
The state of the search in one session (queue, failed pairs, counters, budget clock) is
``frontier.SessionSearch``; what outlives a lost session (re-check costs, process-tree CPU, the
sessions lost) is ``_Run``.

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
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from pydantic import BaseModel, ConfigDict, Field

from lean_tools.types import ProofAssistantError

from ..cache import ReconstructionCache
from .frontier import Node, SessionLost, SessionSearch, goal_key
from .goal import Candidate
from .hammer import TACTICS_IMPORT, HammerSettings
from .knn import KNN_TAG, KnnSource, KnnUnavailable, load_index
from .lm_source import DEFAULT_MAX_CALLS, LM_TAG, LmSource, LmUnavailable, load_model
from .portfolio import Attempt, hammer_candidate
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
    deadline: float | None = None
    """A ``time.monotonic()`` instant after which the search stops whatever is left of its budget:
    set by a caller that abandons an attempt at a hard limit of its own (a benchmark worker), so
    that the search stops and reports first. Its clock runs from before the session is opened;
    the budget's from the first node."""
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
    own_imports: bool = False
    """Open the session on the problem's own header only, without the table's imports (``Lia``,
    ``Lra``, ``Psatz``): for a lemma in a file it must not change, whose proof may load nothing
    the file does not (a hole of a project file, a ``reprove`` problem)."""
    hammer: Literal["off", "fallback", "only"] = "fallback"
    """CoqHammer (``hammer.py``): ``fallback`` (default table only) runs ``hammer`` on the root goal (after the intro
    tactic) once the search has failed (its queued model turns included), if at least
    ``hammer_min_seconds`` of the budget are left;
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
    knn_index: str | None = None
    """Folder of a k-NN tactic index (``knn_index.KnnIndex``; ``prover-setup model tactics`` builds
    one): its suggestions are tried on every expanded node as ``step`` candidates after the
    registry's closers (``knn.py``). None: off, the search is exactly the registry's. Rocq only: a
    Lean search ignores it. An index that cannot be loaded ends the search with a ``NotInstalled``
    reason naming the command that builds it."""
    knn_k: int = Field(8, ge=1)
    """Suggestions asked of the index per node (fewer are tried after the filters of ``knn.py``)."""
    knn_timeout: float = 1.0
    """Timeout of one suggested tactic (whole seconds in Rocq)."""
    lm_model: str | None = None
    """Folder of a tactic language model (``lm_card.TacticModelCard``; ``prover-setup model tactics``
    installs one): its proposals for an expanded node's first goal are tried as ``step``
    candidates in a queued turn of their own, after the node's own candidates and any cheaper
    queued node (``lm_source.py``). None: off.
    Rocq only. A model that cannot be loaded ends the search with a ``NotInstalled`` reason naming
    the command that installs it."""
    lm_k: int = Field(8, ge=1)
    """Beams of one model call (the distinct tactics among them are proposed)."""
    lm_timeout: float = 1.0
    """Timeout of one proposed tactic (whole seconds in Rocq)."""
    lm_max_calls: int = Field(DEFAULT_MAX_CALLS, ge=0)
    """Goals the model is asked about per search (a call costs seconds on two shared CPU cores)."""


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
    knn_seconds: float = 0.0
    """Seconds spent asking the k-NN index (charged to the budget and counted in ``checker_seconds``)."""
    knn_tried: int = 0
    """k-NN suggestions run as attempts."""
    knn_proved: bool = False
    """A k-NN suggestion is on the proof's path (``tags`` holds ``knn``)."""
    lm_seconds: float = 0.0
    """Wall seconds spent asking the tactic model (charged to a wall-clock budget)."""
    lm_cpu_seconds: float = 0.0
    """CPU seconds of the same (what a CPU-clock budget is charged; counted in ``checker_seconds``)."""
    lm_load_seconds: float = 0.0
    """Seconds this search spent loading the tactic model (not charged; 0 once the process holds it)."""
    lm_calls: int = 0
    """Goals the tactic model was asked about."""
    lm_tokens: int = 0
    """Tokens of the proposals the model returned."""
    lm_tried: int = 0
    """Model proposals run as attempts."""
    lm_proved: bool = False
    """A model proposal is on the proof's path (``tags`` holds ``lm``)."""


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


@dataclass
class _TreeClock:
    """Process-tree CPU where the session reports it (Rocq): the session now, its reading when
    the search began in it, and the CPU of the sessions before it (lost to a candidate)."""

    session: Any = None
    cpu0: float = 0.0
    banked: float = 0.0

    def seconds(self) -> float | None:
        now = _tree_cpu(self.session)
        return None if now is None else self.banked + max(0.0, now - self.cpu0)

    def enter(self, session) -> None:
        """Count from now on in ``session`` (what the session before it spent is banked)."""
        if (cpu0 := _tree_cpu(session)) is not None:
            self.banked = self.seconds() or self.banked
            self.session, self.cpu0 = session, cpu0


@dataclass
class _Run:
    """One ``prove_goal`` call across its sessions: what it searches for, with what, what the
    statement openings and re-checks cost, and the search of the current session (``search``:
    None until a statement opened; after a lost session, the lost one until the next opens)."""

    source: Any
    """A ``SessionPool`` or a factory ``header -> session`` (``_open_session``)."""
    header: str
    statement_code: str
    language: str
    budget: SearchBudget
    table: TacticTable
    checker: Any
    on_attempt: Callable[[Attempt], None] | None
    reconstructions: ReconstructionCache | None
    t_start: float
    prelude: str = ""
    """The end of ``header`` that the session does not load: it runs with the statement (``prove_goal``)."""
    open_seconds: float = 0.0
    recheck_seconds: float = 0.0
    rejected: int = 0
    search: SessionSearch | None = None
    knn: KnnSource | None = None
    """The k-NN tactic source (``SearchBudget.knn_index``), shared by the sessions of the run."""
    lm: LmSource | None = None
    """The tactic model source (``SearchBudget.lm_model``), shared by the sessions of the run."""
    tree: _TreeClock = field(default_factory=_TreeClock)
    lost: list[str] = field(default_factory=list)
    """The sessions lost to candidates: the error and the candidate, for the reason."""

    @property
    def session_header(self) -> str:
        """The header the session opens: the problem's plus the table's imports. CoqHammer alone
        needs none of the table's libraries; without them (Lra loads the reals) its feature
        extraction and premise selection run over the problem's own imports only."""
        bare = self.budget.hammer == "only" or self.budget.own_imports
        base = self.header.rstrip()
        if self.prelude:
            base = base[: len(base) - len(self.prelude.strip())].rstrip()
        return base + ("\n" + self.table.imports if self.table.imports and not bare else "")

    def lost_note(self) -> str:
        """What the lost sessions were, for the reason."""
        return f"{len(self.lost)} session(s) lost to candidates: {', '.join(self.lost)}"

    def result(self, proved: bool, reason: str, proof: str | None = None, tags: tuple[str, ...] = ()) -> SearchResult:
        search = self.search
        searched = self.open_seconds + (search.session_seconds if search else 0.0)  # wall, where no CPU is reported
        if (cpu := self.tree.seconds()) is not None:
            searched = cpu  # coqtop and the ATPs/csdp it ran, timed-out requests included
        knn = self.knn.seconds if self.knn is not None else 0.0
        lm = self.lm.cpu_seconds if self.lm is not None else 0.0
        return SearchResult(
            proved=proved,
            proof=proof,
            reason=reason,
            tags=tags,
            attempts=search.attempts if search else 0,
            expansions=search.expansions + search.expansions_before if search else 0,
            checker_seconds=searched + self.recheck_seconds + knn + lm,
            wall_seconds=time.monotonic() - self.t_start,
            rejected=self.rejected,
            knn_seconds=round(knn, 4),
            knn_tried=self.knn.tried if self.knn is not None else 0,
            knn_proved=KNN_TAG in tags,
            **_lm_report(self.lm, tags),
        )

    def finish(self, node: Node, cand: Candidate, att: Attempt | None = None) -> SearchResult | None:
        """A tactic-mode proof: the result once the fresh checker accepts it, else None."""
        kept = att.replacement if att is not None and att.replacement is not None else cand
        script, tags = (*node.script, self.table.proof_line(kept)), (*node.tags, cand.tag)
        proof = _render_proof(self.table, script)
        if not self.budget.recheck:
            return self.result(True, "proved (not re-checked)", proof, tags)
        text = render_file(self.header, self.statement_code, proof, self.language)
        fc = self.checker.check_file(text, timeout=self.budget.recheck_timeout)
        self.recheck_seconds += fc.cpu_seconds or fc.wall_seconds
        if _accepted(fc):
            return self.result(True, "proved", proof, tags)
        self.rejected += 1
        return None


def _lm_report(lm: LmSource | None, tags: tuple[str, ...]) -> dict[str, Any]:
    """The ``SearchResult`` fields of the tactic model source (none without one)."""
    if lm is None:
        return {}
    return {"lm_seconds": round(lm.seconds, 4), "lm_cpu_seconds": round(lm.cpu_seconds, 4),
            "lm_load_seconds": round(lm.load_seconds, 4), "lm_calls": lm.calls,
            "lm_tokens": lm.tokens, "lm_tried": lm.tried, "lm_proved": LM_TAG in tags}


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
    prelude: str = "",
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
    ``prelude``: sentences that end ``header`` (the allowed imports of a hole of a project file)
    and that the session does not load: they run with the statement instead, in the same order,
    so the statement opens in the same environment while the session's header is the file's
    text alone, which for the holes of one file extends from hole to hole (the pool then moves
    one session forward, ``lean_tools.pool``). The fresh checker still gets the whole ``header``.
    """
    if prelude.strip() and not header.rstrip().endswith(prelude.strip()):
        raise ValueError("prove_goal: the prelude must be the end of the header")
    t_start = time.monotonic()
    budget = budget or SearchBudget()
    table = table or get_table(language)
    checker = checker if checker is not None or not budget.recheck else _default_checker(language)
    run = _Run(session_factory_or_pool, header, statement_code, language, budget, table, checker, on_attempt, reconstructions, t_start,
               prelude=prelude.strip())
    if budget.knn_index is not None and language == "rocq":
        try:
            run.knn = KnnSource(load_index(budget.knn_index), k=budget.knn_k, timeout=budget.knn_timeout)
        except KnnUnavailable as e:
            return run.result(False, f"NotInstalled: {e}")
    if budget.lm_model is not None and language == "rocq":
        t_load = time.monotonic()
        try:
            model = load_model(budget.lm_model)
        except LmUnavailable as e:
            return run.result(False, f"NotInstalled: {e}")
        run.lm = LmSource(model, k=budget.lm_k, timeout=budget.lm_timeout, max_calls=budget.lm_max_calls,
                          load_seconds=time.monotonic() - t_load)
    while True:
        try:
            res = _one_session(run)
        except SessionLost as e:
            run.lost.append(f"{type(e.error).__name__} on {e.tactic[:60]!r}")
            note = run.lost_note()
            if run.search is not None and run.search.out_of_budget():
                return run.result(False, f"budget ({note})")
            if len(run.lost) > budget.session_restarts:
                return run.result(False, f"{_error_line(e.error)} ({note})")
            continue
        except ProofAssistantError as e:
            return run.result(False, _error_line(e))
        if run.lost and not res.proved:
            res = res.model_copy(update={"reason": f"{res.reason} ({run.lost_note()})"})
        return res


def _one_session(run: _Run) -> SearchResult:
    """The search in one session (``run.search``, when set: the search whose session a
    candidate killed; what it learnt carries over)."""
    with _open_session(run.source, run.language, run.session_header) as s:
        run.tree.enter(s)
        root = _open_root(run, s)
        if isinstance(root, SearchResult):
            return root
        search = cast(SessionSearch, run.search)  # set by _open_root
        budget = run.budget
        if budget.hammer == "only":
            search.heap.clear()
            if (done := _hammer_phase(run, search, root)) is not None:
                return done
        if (done := _best_first(run, search)) is not None:
            return done
        for node, cand in search.retries():
            if search.run(node, cand).proved and (done := run.finish(node, cand)) is not None:
                return done
        # the default Rocq table's fallback; a fixed or hand-made table gets only what it lists
        fallback = budget.hammer == "fallback" and run.table is ROCQ and search.left() >= budget.hammer_min_seconds
        if fallback and (done := _hammer_phase(run, search, root)) is not None:
            return done
        why = "budget" if search.out_of_budget() or search.heap else "exhausted"
        return run.result(False, f"{why} ({search.hammer_note})" if search.hammer_note else why)


def _open_root(run: _Run, s) -> Node | SearchResult:
    """Open the statement in ``s`` and start the search in ``s`` (``run.search``) on it: the
    root node after the table's intro tactic, queued; or the result when it does not open."""
    table = run.table
    t0 = time.monotonic()
    opening = table.open_code(run.statement_code)
    out = s.run_command(f"{run.prelude}\n{opening}" if run.prelude else opening, timeout=run.budget.start_timeout)
    run.open_seconds += time.monotonic() - t0
    if not out.ok:
        return run.result(False, f"statement error: {out.errors[0].text[:200]}")
    holes = [h for h in out.holes if h.state is not None]
    if not holes:
        return run.result(False, "statement opened no proof")
    search = SessionSearch(s, table, run.budget, run.header, run.statement_code, run.language, run.on_attempt, before=run.search,
                           knn=run.knn, lm=run.lm)
    run.search = search
    root = Node(0.0, next(search.seq), holes[0].state, tuple(out.goals) or (holes[0].goal,), (), (), 0)
    for tac in table.intro:
        att = search.attempt(root, Candidate(tactic=tac, kind="step", timeout=2, cost=0, tag="intro"))
        if att is not None:
            line = table.proof_line(Candidate(tactic=tac, kind="step"))
            root = Node(0.0, root.seq, cast(int, att.state), att.goals, (line,), ("intro",), 0)
            break
    if table is ROCQ:  # the registry's families read it; a fixed or hand-made table lists its own tactics
        t_probe = time.monotonic()
        search.ctx = dataclasses.replace(search.ctx, absent_tactics=absent_tactics(s, root.state))
        search.session_seconds += time.monotonic() - t_probe
    search.seen.add(goal_key(root.goals))
    heapq.heappush(search.heap, root)
    return root


def _next_entry(search: SessionSearch, cap: int) -> Node | None:
    """The cheapest queued entry; once ``cap`` nodes were expanded, the cheapest queued model turn
    (the cap counts expansions, the model's calls have their own bound), the nodes staying queued."""
    if search.expansions < cap:
        return heapq.heappop(search.heap) if search.heap else None
    turns = [n for n in search.heap if n.taken is not None]
    if not turns:
        return None
    turn = min(turns)
    search.heap.remove(turn)
    heapq.heapify(search.heap)
    return turn


def _best_first(run: _Run, search: SessionSearch) -> SearchResult | None:
    """Expand the cheapest queued entry (a node, or a model turn) until nothing is left to take
    (``_next_entry``: past the expansion cap only model turns are taken) or the budget is spent;
    the first proof the fresh checker accepts, else None."""
    while not search.out_of_budget() and (node := _next_entry(search, run.budget.max_expansions)) is not None:
        if node.taken is None:  # a queued model turn (``SessionSearch.defer_model``) is not an expansion
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
            if (done := run.finish(node, cand, att)) is not None:
                return done
    return None


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


def _hammer_phase(run: _Run, search: SessionSearch, root: Node) -> SearchResult | None:
    """CoqHammer on the root goal: a cached reconstruction replayed first, else ``hammer``
    under what is left of the budget (at most ``hammer_seconds``); its reconstruction is
    stored once the fresh checker accepted the proof."""
    budget, header, cache, finish = search.budget, run.header, run.reconstructions, run.finish
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
