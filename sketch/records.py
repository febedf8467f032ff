"""The sketch's records: ``LemmaSpec`` (one lemma, its proof or a hole) and ``Sketch`` (the
lemmas, the main proof and their dependency edges). Frozen, JSONL-serialisable
(``lean_tools.types.Record``); ``prover.records`` re-exports both with the other stage records.
"""

from __future__ import annotations

from lean_tools.types import Record


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
