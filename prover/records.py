"""Frozen, JSONL-serialisable records handed between the prover's stages.

Pipeline: ``Problem`` -> ``InformalProof`` -> ``Sketch`` (``LemmaSpec`` + graph edges) ->
``LemmaGoal`` -> ``Attempt``\\* -> ``LemmaResult`` -> assembled file -> ``VerdictRecord`` ->
``ProofResult``. Everything that happens on the way is a ``TraceEvent`` line in the trace.

What is covered: the data each stage needs and produces, and the budget counters.
What is not covered: live objects (sessions, LLM clients, pools); those are passed separately.
"""

from __future__ import annotations

import time
from typing import Any, Literal

from pydantic import Field

from lean_tools.types import Record

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
    informal: str | None = None
    """A user-supplied informal proof (``--informal FILE`` or a benchmark field), if any."""


class InformalProof(Record):
    problem: str
    text: str
    source: Literal["user", "llm", "none"]
    tokens_in: int = 0
    tokens_out: int = 0


class LemmaSpec(Record):
    """One lemma of a sketch: its declaration without a proof, and the proof if the sketch gave one.

    ``declaration`` is the source text from the keyword up to (not including) the proof:
    Rocq ``Lemma foo (n : nat) : n + 0 = n.``; Lean ``lemma foo (n : ℕ) : n + 0 = n``.
    """

    name: str
    declaration: str
    proof: str | None = None
    """The proof body the sketch wrote, or None when it left a hole (sorry/admit)."""
    depth: int = 0
    """0 for sketch lemmas; n for sub-lemmas created by n nested splits."""
    parent: str | None = None


class Sketch(Record):
    """A formal skeleton: named lemmas (holes allowed) and a main proof that uses them."""

    problem: str
    round: int
    """Which decomposition this is (0 = first; later ones follow failed lemmas)."""
    lemmas: tuple[LemmaSpec, ...]
    main_proof: str
    """The target theorem's proof body, which must compile given the lemmas."""
    edges: tuple[tuple[str, str], ...] = ()
    """(user, used) pairs: lemma or the theorem name -> lemma it mentions."""
    text: str = ""
    """The whole skeleton file that was checked."""
    checked: bool = False
    errors: tuple[str, ...] = ()
    repairs: int = 0
    """How many error-feedback retries it took."""


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
