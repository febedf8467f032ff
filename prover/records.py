"""Frozen, JSONL-serialisable records handed between the prover's stages.

Pipeline: ``Problem`` -> ``InformalProof`` (from the informal loop's candidates, judgements
and selection: ``InformalCandidate``, ``InformalJudgement``, ``InformalSelection``) -> ``Sketch`` (``LemmaSpec`` + graph edges) ->
``LemmaGoal`` -> ``Attempt``\\* -> ``LemmaResult`` -> assembled file -> ``VerdictRecord`` ->
``ProofResult``. Everything that happens on the way is a ``TraceEvent`` line in the trace.

What is covered: the data each stage needs and produces, and the budget counters.
``LemmaSpec`` and ``Sketch`` are defined in ``sketch.records`` (the sketch layer sits below the
prover and imports nothing of it) and re-exported here.
What is not covered: live objects (sessions, LLM clients, pools); those are passed separately.
"""

from __future__ import annotations

import time
from typing import Any, Literal

from pydantic import Field

from lean_tools.rocq.project import RocqProject
from lean_tools.types import Record

# The sketch's own records live with the sketch layer; re-exported here with the others.
from sketch.records import LemmaSpec as LemmaSpec
from sketch.records import Sketch as Sketch

from .premises import HoleContext

Language = Literal["lean", "rocq"]


class Problem(Record):
    """A target theorem in a source file.

    ``text`` is the original file exactly as given (the soundness verdict compares the
    candidate against it). ``header`` holds imports/opens (the session key), ``preamble``
    the definitions between the header and the theorem, ``statement`` the binders and type
    as written, ``proof`` the original proof body (usually ``sorry``/``Admitted``).
    """

    name: str
    """Problem name used in results and traces (the theorem name unless told otherwise)."""
    language: Language
    path: str | None = None
    text: str
    header: str
    preamble: str = ""
    theorem_name: str
    statement: str
    decl_keyword: str = "theorem"
    declaration: str = ""
    """The theorem's text from its keyword up to its proof, verbatim (Rocq: ``Theorem t : P.``;
    Lean: ``theorem t : P``, without ``:=``). Candidates reuse it unchanged."""
    proof: str = ""
    postamble: str = ""
    """Text after the theorem's proof (kept verbatim in candidates)."""
    in_project: bool = False
    """A hole of a project file: the built-in search's fresh checker compiles the file's own text
    with ``closers`` after the proof and without any library the file does not load itself."""
    closers: str = ""
    """``End X.`` sentences closing the sections and modules open at the theorem (a hole of a
    project file)."""
    assumed: tuple[str, ...] = ()
    """Earlier holes of a project file, still ``Admitted``, that a proof may rest on: the verdict
    accepts them, and the fill reports such a proof as ``proved_assuming`` them."""
    hole_context: HoleContext | None = None
    """A hole of a project file: its section context and the most relevant earlier lemmas of the
    file and of the project's files it loads (``prover.premises``), shown to the agents."""
    informal: str | None = None
    """A user-supplied informal proof (``--informal FILE`` or a benchmark field), if any."""


class InformalProof(Record):
    """The informal proof handed to the sketch stage (the loop's selected candidate, the user's
    own, or none). ``score``/``flags`` are its judgement when it was graded."""

    problem: str
    text: str
    source: Literal["user", "llm", "none"]
    tokens_in: int = 0
    tokens_out: int = 0
    candidate: str | None = None
    """Id of the loop's candidate (``c2``, ``c2r1`` = candidate 2 after one revision)."""
    score: float | None = None
    """Its judgement's score in [0, 1]; None when it was not graded."""
    flags: tuple[JudgementFlag, ...] = ()


class JudgementFlag(Record):
    """One problem the verifier found: the step, what is wrong, and optionally Python code that
    tests the step's numeric or finite claim (an ``assert`` that fails when the claim is false)."""

    step: str
    issue: str
    check_code: str | None = None


class SandboxCheck(Record):
    """A flagged claim tested in the Python sandbox.

    ``status``: ``holds`` (exit 0), ``refuted`` (an ``AssertionError``: the claim is false, which
    is evidence against the candidate), ``error`` (the check itself is broken: any other failure,
    not evidence), ``timeout``."""

    candidate: str
    flag: int
    """Index of the flag in its judgement."""
    code: str
    status: Literal["holds", "refuted", "error", "timeout"]
    output: str = ""
    wall_s: float = 0.0


class InformalCandidate(Record):
    """One informal proof of the loop: an original sample (``round`` 0) or a revision."""

    id: str
    index: int
    """Which of the ``n`` samples it descends from."""
    round: int = 0
    """0: sampled; r: after r revisions."""
    text: str
    parent: str | None = None
    """The candidate it revises."""
    finish: str = ""
    tokens_out: int = 0


class InformalJudgement(Record):
    """The verifier's grade of one candidate (or of a user's proof).

    ``score`` is the final score: the model's own (``model_score``) capped at
    ``informal.refuted_cap`` when a sandbox check refuted a flagged claim, and 0 when the
    judgement did not parse (``error`` then says why)."""

    candidate: str
    score: float
    model_score: float = 0.0
    reasoning: str = ""
    flags: tuple[JudgementFlag, ...] = ()
    checks: tuple[SandboxCheck, ...] = ()
    parsed: bool = True
    structured: bool = False
    """Asked for as a JSON-schema structured output."""
    error: str | None = None

    @property
    def refuted(self) -> bool:
        return any(c.status == "refuted" for c in self.checks)


class InformalRevision(Record):
    """A revision request: which candidate, in which round, and the candidate it produced (None
    when the model call failed)."""

    candidate: str
    round: int
    revised: str | None = None
    error: str | None = None


class InformalSelection(Record):
    """The loop's outcome: candidates ranked best first (one per sample: the best-judged version
    of it), and why the loop stopped."""

    problem: str
    selected: str | None
    """Id of the candidate sent to the sketch (None when the loop produced none)."""
    ranking: tuple[tuple[str, float], ...] = ()
    """(candidate id, score), best first; score -1 for a candidate the loop had no budget left to judge."""
    stopped_by: str | None = None
    """``budget_share`` when the loop's share of the budget ran out, else None."""
    reason: str = ""
    calls: int = 0
    """Model completions the loop used."""
    tokens: int = 0
    wall_s: float = 0.0


class LemmaGoal(Record):
    """A lemma to prove, with everything needed to check an attempt in isolation.

    ``context`` is the text placed between the header and the lemma when checking: the
    problem's preamble plus the declarations the lemma depends on (with holes).
    """

    problem: str
    name: str
    language: Language
    header: str
    context: str
    declaration: str
    depth: int = 0
    parent: str | None = None
    key: str = ""
    """Cache key (normalised statement + header), see ``prover.cache``."""


class Attempt(Record):
    lemma: str
    proof: str
    ok: bool
    source: Literal["agent", "automation", "cache", "sketch", "split"] = "agent"
    errors: tuple[str, ...] = ()
    goals: tuple[str, ...] = ()
    cpu_s: float = 0.0
    wall_s: float = 0.0


class LemmaResult(Record):
    name: str
    proved: bool
    proof: str | None = None
    source: str = ""
    """Who found the proof: agent, automation, cache, sketch, split."""
    reason: str = ""
    attempts: int = 0
    sublemmas: tuple[LemmaSpec, ...] = ()
    """Helper lemmas the proof relies on (from a split); they come before it in the file."""
    wall_s: float = 0.0


class VerdictRecord(Record):
    """The soundness verdict (``lean_tools.soundness.verify``) as recorded in results."""

    accepted: bool
    reason: str


class Spent(Record):
    """Budget spent. ``checker_cpu_s`` counts proof-assistant CPU where the backend reports it."""

    wall_s: float = 0.0
    tokens_in: int = 0
    tokens_out: int = 0
    checker_cpu_s: float = 0.0
    attempts: int = 0
    llm_calls: int = 0
    tactic_model_calls: int = 0
    """Goals the built-in search asked its tactic model about (``lm``/``learned`` presets; not in ``llm_calls``)."""
    tactic_model_tokens: int = 0
    """Tokens of the tactics that model returned (not in ``tokens_out``, not charged to the token budget)."""
    tactic_model_s: float = 0.0
    """Wall seconds the search spent asking the tactic model (its load not included; what the
    budget was charged for it is inside ``checker_cpu_s``)."""
    knn_s: float = 0.0
    """Seconds the search spent asking the k-NN tactic index (``knn``/``learned`` presets)."""


class ProofResult(Record):
    """Outcome of ``prover.api.prove``. ``proved`` is true only after the soundness verdict accepted."""

    problem: str
    language: Language
    proved: bool
    proof_text: str | None = None
    """The complete verified file (only when proved)."""
    reason: str = ""
    spent: Spent = Spent()
    lemmas: tuple[LemmaResult, ...] = ()
    verdict: VerdictRecord | None = None
    mode: Literal["default", "agent"] = "default"
    """default: built-in search, no model; agent: informal -> sketch -> lemma agents."""
    model: str = ""
    stopped_by: str | None = None
    """Which budget stopped the run (wall_s, tokens, checker_cpu_s, attempts, interrupt), if any."""
    informal: InformalProof | None = None
    """The informal proof the (last) sketch round used, with its judgement (agent mode)."""


class TraceEvent(Record):
    """One line of the trace. ``data`` is small and JSON-serialisable."""

    t: float
    """Seconds since the run started."""
    kind: str
    problem: str = ""
    lemma: str | None = None
    data: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def now(cls, start: float, kind: str, **fields: Any) -> TraceEvent:
        return cls(t=round(time.monotonic() - start, 4), kind=kind, **fields)


HoleStatus = Literal["proved", "not_proved", "proved_assuming"]


class HoleResult(Record):
    """What happened to one hole of a project file (``prover.fill``)."""

    name: str
    """Qualified name (modules included; ``#admitN`` for the N-th ``admit.`` of a proof)."""
    kind: Literal["admitted", "admit"]
    status: HoleStatus
    assumes: tuple[str, ...] = ()
    """For ``proved_assuming``: the admitted lemmas the proof rests on."""
    proof: str | None = None
    """The tactic script written into the body (without the kept partial script)."""
    closed_by: str | None = None
    """Who found the proof: ``built-in search``, ``hammer``, ``agent``, ``cache``."""
    reason: str = ""
    seconds: float = 0.0
    checker_cpu_s: float = 0.0


class FillReport(Record):
    """The outcome of ``prover.fill.fill_file``: every chosen hole and the file as written."""

    file: str
    project: RocqProject
    holes: tuple[HoleResult, ...]
    text: str
    """The filled file (the original when nothing was filled)."""
    verdict: str = ""
    """The whole-file verdict in context, one line."""
    allowed_axioms: tuple[str, ...] = ()
    """Axioms the project itself declares, accepted in ``Print Assumptions`` besides the whitelist."""
    requires_added: tuple[str, ...] = ()
    """``Require`` lines the fill added to the file (``--allow-require``), in file order."""

    @property
    def all_proved(self) -> bool:
        return bool(self.holes) and all(h.status == "proved" for h in self.holes)
