"""Static screens of Rocq text a candidate added (the proof's tactics, helper sentences, the
read-only queries after the proof).

Comments and strings are masked first (``lean_tools.source.mask``), so words inside them
neither trigger nor hide anything; the rules both assistants share are in ``shared_screens``.

Defences, Rocq (``screen_rocq``):
- ``rocq.hole``: ``admit``, ``Admitted``, ``give_up``, ``Abort``.
- ``rocq.command``: a proof sentence that starts with a capitalised word (every vernacular
  command does: ``Axiom Parameter Variable Hypothesis Conjecture Context Set Unset
  Declare Load Redirect Drop Cd Extraction Require Import Module Section Notation
  Instance Coercion Canonical Hint Arguments Opaque Transparent Print Time Fail
  Register Primitive Add ...``) other than ``Proof``/``Qed``/``Defined`` and the tactic ``Unshelve``; outside proofs
  only ``Lemma``-like declarations, ``Definition``, ``Fixpoint``, ``Ltac`` and Ltac2 value
  definitions (``Ltac2 [rec] name := ...``; tactics only produce terms the kernel checks) may start
  a sentence.
  Sentences end at ``.`` AND at ``...`` (``tac...``; ``rocq.parser.rocq_sentences``), as in coqc; a
  sentence whose start is not a word after the known bullets/selectors (``1-3:``) is judged by
  its first word.
- ``rocq.banned``: the words ``bypass_check`` (kernel check bypass attribute), every ``native_*``
  word (``native_compute``, ``native_cast_no_check``: trust the native compiler), and these
  command words anywhere, even mid-sentence.
- ``rocq.hammer``: CoqHammer's ATP-calling tactics (``hammer``, ``predict``, ``hammer_*``); the
  proof must be the replayed reconstruction. Allowed instead: exactly one helper sentence
  ``From Hammer Require Import Tactics.`` (``HAMMER_TACTICS_IMPORT``, reason written there).
- ``rocq.attribute``: ``#[...]`` attributes.
- ``rocq.reserved``: identifiers starting ``__prover`` (reserved for the verifier's probes).
"""

from __future__ import annotations

import re

from ..rocq.parser import ROCQ_THEOREM_KEYWORDS, Sentence, rocq_sentences
from ..source import mask
from .rocq_helpers import final_run, readonly_sentence
from .shared_screens import invisible, line_at, lookalikes, words
from .verdict import Finding

_ROCQ_HOLES = ["admit", "Admitted", "give_up", "Abort"]
_ROCQ_BANNED_WORDS = (  # noqa: SIM905 - one word list, kept compact
    "bypass_check native_compute Axiom Axioms Parameter Parameters Conjecture Conjectures Hypothesis "
    "Hypotheses Variable Variables Context Declare Load Redirect Drop Cd Extraction Extract Unset Module "
    "Section Notation Infix Reserved Instance Canonical Coercion Hint Arguments Opaque Transparent "
    "Strategy Typeclasses Register Primitive Require Import Export Print Assumptions Locate Program "
    "Obligation Obligations Goal Save Restart Undo BackTo Back Reset Generalizable Universe Universes "
    "Constraint Polymorphic Monomorphic Cumulative Debug Optimize "
).split()
_ROCQ_DECL_HEADS = set(ROCQ_THEOREM_KEYWORDS)
_ROCQ_HELPER_HEADS = _ROCQ_DECL_HEADS | {"Definition", "Fixpoint", "Ltac", "Ltac2"}
# An Ltac2 value definition (``Ltac2 [rec|mutable] name ... := tactic``; value names start with a
# lower-case letter), not ``Ltac2 Notation``/``Type``/``Set``/``Eval``/``@external``.
_RE_LTAC2_DEF = re.compile(r"Ltac2\s+(?:(?:rec|mutable)\s+)*[a-z_][\w']*")
_ROCQ_PROOF_CAPS = {"Proof", "Qed", "Defined", "Unshelve"}

_RE_ROCQ_HOLE = words(_ROCQ_HOLES, r"[\w'.]")
_RE_ROCQ_BANNED = words(_ROCQ_BANNED_WORDS, r"[\w'.]")
# Every tactic/option that hands conversion to the native compiler (native_compute,
# native_cast_no_check, NativeCompute options...): outside the kernel's usual trusted base.
_RE_ROCQ_NATIVE = re.compile(r"(?<![\w'.])(?:native_\w*|NativeCompute\w*)")
_RE_ROCQ_ATTR = re.compile(r"#\[")
# CoqHammer's ATP-calling tactics (``hammer``, ``predict``, ``hammer_hook``...): a proof must be
# the replayed reconstruction, not a call to external provers (see ``HAMMER_TACTICS_IMPORT``).
_RE_ROCQ_HAMMER = re.compile(r"(?<![\w'.])(?:hammer\w*|predict|Hammer_\w+)(?![\w'])")
_RE_ROCQ_RESERVED = re.compile(r"(?<![\w'])__prover\w*")
# Bullets, braces, goal selectors and the control prefixes ``Time``/``Timeout N`` (they run the
# sentence that follows unchanged, so that sentence is judged by its own first word).
_RE_SENTENCE_LEAD = re.compile(r"(?:\s|[-+*{}]|(?:\d+|all|par|\[\s*[\w']+\s*\])\s*:(?!=)|(?:Time|Timeout\s+\d+)\s+(?=[A-Za-z_]))*")


def sentence_head(sentence: str) -> str:
    """The first word of a Rocq sentence after bullets, braces and goal selectors."""
    m = _RE_SENTENCE_LEAD.match(sentence)
    rest = sentence[m.end() :] if m else sentence
    w = re.match(r"[A-Za-z_][\w']*(?:\.[A-Za-z_][\w']*)*", rest)
    if w is None and rest.strip():
        # Not a word after the bullets/selectors we know (``1-3:``, ``!:``, a symbol...): judge
        # the sentence by its first word anyway, so no command hides behind an odd prefix.
        w = re.search(r"(?<![\w'.])[A-Za-z_][\w']*(?:\.[A-Za-z_][\w']*)*", rest)
    return w.group(0) if w else ""


_RE_REQUIRE = re.compile(r"(?:From\s+(?P<root>[\w.]+)\s+)?Require(?:\s+(?:Import|Export))?\s+(?P<mods>[\w.\s]+)\.$")


_STDLIB_TACTIC_MODULES = {
    "Lia": "micromega",
    "Lra": "micromega",
    "Psatz": "micromega",
    "Lqa": "micromega",
    "Ring": "setoid_ring",
    "Field": "setoid_ring",
    "ZArith": "ZArith",
    "Reals": "Reals",
    "Arith": "Arith",
    # Data-structure modules published proofs load beside them (``Require Import List. Import
    # ListNotations.``); they declare no axiom and load no plugin.
    "List": "Lists",
    "Bool": "Bool",
}
STDLIB_REQUIRES: frozenset[str] = frozenset(
    spelling
    for mod, folder in _STDLIB_TACTIC_MODULES.items()
    for root in ("", "Coq.", "Stdlib.")
    for spelling in (f"{root}{mod}", f"{root}{folder}.{mod}")
) | frozenset({"Ltac2.Ltac2"})
"""Every spelling (``Lia``, ``Coq.Lia``, ``micromega.Lia``, ``Coq.micromega.Lia``, ``Stdlib...``)
of the Coq standard library's arithmetic/tactic modules Lia, Lra, Psatz, Lqa, Ring, Field,
ZArith, Reals, Arith, the data-structure modules List and Bool, plus ``From Ltac2 Require Import Ltac2`` (the tactic language shipped with
Coq, for helpers written as Ltac2 definitions); ``prover-check`` lets helpers ``Require`` these by default. Why that is
sound: the verifier elaborates the reference statement BEFORE the helpers (the probe in
``rocq_verify``), so nothing a helper loads can change what the reference means, and the
``constr_eq`` check then rejects a target whose own elaboration changed (a re-bound name such
as ``sqrt``, a scope, a coercion); what the modules bring into a proof is still listed by
``Print Assumptions`` (the reals' axioms are on the whitelist anyway); they load only the
standard library's own plugins (micromega, ring)."""


def allowed_require(sentence: str, allowed: frozenset[str]) -> bool:
    """A ``[From X] Require [Import] M1 M2.`` sentence naming only modules in ``allowed``.

    Names are compared as written (``Lra``, ``Coq.micromega.Lra``); with ``From X`` each
    module counts as ``X.M``. Used only for helpers, where the verifier's elaborated-statement
    check and ``Print Assumptions`` still guard what the import brings in.
    """
    m = _RE_REQUIRE.match(sentence.strip())
    if not m or not allowed:
        return False
    mods = m.group("mods").split()
    root = m.group("root")
    return bool(mods) and all((f"{root}.{x}" if root else x) in allowed for x in mods)


HAMMER_TACTICS_IMPORT = "From Hammer Require Import Tactics."
"""The one CoqHammer sentence a helper may contain, exactly as written (whitespace aside).

Why: ``hammer`` finds a proof with external ATPs and prints a reconstruction (``sauto``,
``hauto``, ``srun``, ``qauto``, ``scongruence`` ... ``use: lemmas``) that re-checks in Coq with no
ATP; those tactics live in ``Hammer.Tactics``. Loading that module cannot make a false proof
pass: it declares no axiom (checked with coqc 8.16.1 / libcoq-hammer 1.3.2: ``Print Assumptions``
of lemmas proved by ``sauto use: ...``, ``hauto``, ``qauto`` and ``srun eauto`` says "Closed under
the global context"; its sources contain no ``Axiom``/``Parameter``/``Admitted``), whatever a
proof reaches through it is still listed by ``Print Assumptions`` in the separate query process,
and the reference statement is elaborated BEFORE every helper (``rocq_verify``), so the
``is_true`` coercion and hint databases it brings cannot change what the statement means (a
target that elaborates differently fails ``constr_eq``). Any other spelling is refused:
``Hammer.Plugin``/``From Hammer Require Import Hammer`` (the ``hammer`` tactic itself, which
runs ATPs at check time and so is no re-checkable proof), ``Export``, several modules in one
sentence, or the import anywhere but among the helpers before the theorem."""


def is_hammer_tactics_import(sentence: str) -> bool:
    """``sentence`` (comments masked) is exactly ``HAMMER_TACTICS_IMPORT`` up to whitespace."""
    return " ".join(sentence.split()) == HAMMER_TACTICS_IMPORT


def screen_rocq(
    text: str,
    *,
    role: str = "proof",
    line_offset: int = 0,
    allowed_requires: frozenset[str] = frozenset(),
    final: bool = False,
) -> tuple[Finding, ...]:
    """Screen Rocq text a candidate added. ``role``: ``proof`` (tactics of the target) or ``helpers``.

    ``allowed_requires`` (helpers only): module names a helper ``Require`` may load.
    ``final`` (helpers only): the text is the FINAL helper run, after the problem's last sentence,
    where the reference statement is elaborated before it; there ``rocq_helpers.final_run`` also
    allows closed sections, safe options, hints, scopes, ``Arguments`` (reasons written there).
    """
    out = invisible(text, line_offset)
    masked = mask(text, "rocq")
    exempt: dict[int, str] = {}
    if role == "helpers":
        with_strings = mask(text, "rocq", strings=False)  # a string in a Require is not a module name
        for sentence in rocq_sentences(masked):
            a, b = sentence.start, sentence.end
            sent = with_strings[a:b]
            if is_hammer_tactics_import(sent) or allowed_require(sent, allowed_requires):
                masked = masked[:a] + " " * (b - a) + masked[b:]
        if final:
            masked, exempt = final_run(masked)
    out += _rocq_rules(masked, role, line_offset, exempt)
    if not out:
        out += lookalikes(masked, lambda sk, r, o: _rocq_rules(sk, r, o, exempt if len(sk) == len(masked) else {}), role, line_offset)
    return tuple(out)


def screen_rocq_readonly(text: str, *, line_offset: int = 0) -> tuple[Finding, ...]:
    """Screen one read-only query sentence placed after the proof (``Print Assumptions``,
    ``Check``, ``Compute``...; ``rocq_helpers.readonly_sentence``): its argument text goes through
    the word rules (no ``admit``, ``native_compute``, axioms, attributes, commands inside it)."""
    out = invisible(text, line_offset)
    args = readonly_sentence(mask(text, "rocq"))
    if args is None:
        return (Finding(rule="candidate.suffix", message="only read-only queries may follow the proof", line=line_offset + 1),)
    out += _rocq_word_rules(args, line_offset)
    if not out:
        out += lookalikes(args, lambda sk, _role, off: _rocq_word_rules(sk, off), "proof", line_offset)
    return tuple(out)


def _rocq_word_rules(masked: str, off: int) -> list[Finding]:
    """The rules that hold for every word of added text, whatever sentence it is in."""
    out: list[Finding] = []

    def add(rule: str, pos: int, what: str, snippet: str = "") -> None:
        out.append(
            Finding(
                rule=rule,
                message=what,
                line=line_at(masked, pos, off),
                snippet=snippet[:60],
            )
        )

    for m in _RE_ROCQ_HOLE.finditer(masked):
        add(
            "rocq.hole",
            m.start(),
            f"`{m.group(0)}` leaves the proof unfinished",
            m.group(0),
        )
    for m in _RE_ROCQ_BANNED.finditer(masked):
        add(
            "rocq.banned",
            m.start(),
            f"`{m.group(0)}` is not allowed in a proof or helper",
            m.group(0),
        )
    for m in _RE_ROCQ_NATIVE.finditer(masked):
        add(
            "rocq.banned",
            m.start(),
            f"`{m.group(0)}` trusts the native compiler instead of the kernel",
            m.group(0),
        )
    for m in _RE_ROCQ_HAMMER.finditer(masked):
        add(
            "rocq.hammer",
            m.start(),
            f"`{m.group(0)}` runs external provers at check time: replay its reconstruction "
            f"(sauto/hauto/srun ... with `{HAMMER_TACTICS_IMPORT}` among the helpers) instead",
            m.group(0),
        )
    for m in _RE_ROCQ_ATTR.finditer(masked):
        add("rocq.attribute", m.start(), "attributes `#[...]` are not allowed", "#[")
    for m in _RE_ROCQ_RESERVED.finditer(masked):
        add(
            "rocq.reserved",
            m.start(),
            f"`{m.group(0)}` uses the verifier's reserved prefix",
            m.group(0),
        )
    return out


def _rocq_rules(masked: str, role: str, off: int, exempt: dict[int, str] | None = None) -> list[Finding]:
    """Word rules, then the sentence-head rules. ``exempt``: end offsets of sentences
    ``rocq_helpers.final_run`` allowed (``skip``: no head rule; ``decl``: judged as a Definition)."""
    out = _rocq_word_rules(masked, off)
    exempt = exempt or {}

    def add(rule: str, pos: int, what: str, snippet: str = "") -> None:
        out.append(Finding(rule=rule, message=what, line=line_at(masked, pos, off), snippet=snippet[:60]))

    in_proof = role == "proof"
    for sentence in rocq_sentences(masked) + _trailing(masked):
        s, e = sentence.start, sentence.end
        sent = masked[s:e]
        kind = exempt.get(e) if not in_proof else None
        if kind == "skip":
            continue
        head = "Definition" if kind == "decl" else sentence_head(sent)
        if not head:
            continue
        if in_proof:
            if head in _ROCQ_PROOF_CAPS:
                if head in ("Qed", "Defined") and role == "helpers":
                    in_proof = False
                continue
            # A qualified name whose last component is lower case (`Z.div_mod_to_equations`,
            # `Zify.zify`) is an Ltac name: vernacular commands are never qualified.
            last = head.rsplit(".", 1)[-1]
            qualified_tactic = "." in head and (last[0].islower() or last[0] == "_")
            if head[0].isupper() and not qualified_tactic:
                add(
                    "rocq.command",
                    s,
                    f"sentence `{head} ...` inside a proof is a command, not a tactic",
                    sent.strip(),
                )
            continue
        # helpers, between declarations
        if head == "Ltac2" and not _RE_LTAC2_DEF.match(sent.lstrip()):
            add("rocq.command", s, "only Ltac2 value definitions (`Ltac2 name := ...`) may precede the theorem", sent.strip())
            continue
        if head not in _ROCQ_HELPER_HEADS:
            add(
                "rocq.command",
                s,
                f"only Lemma/Theorem/Definition/Fixpoint/Ltac/Ltac2 may precede the theorem, found `{head}`",
                sent.strip(),
            )
            continue
        if head in _ROCQ_DECL_HEADS or (head in ("Definition", "Fixpoint") and not _has_body(sent)):
            in_proof = True
    if role == "helpers" and in_proof:
        add(
            "rocq.hole",
            len(masked),
            "a helper declaration is not closed with Qed./Defined.",
        )
    return out


def _trailing(masked: str) -> list[Sentence]:
    """A last sentence without a final period (so it is screened too)."""
    sents = rocq_sentences(masked)
    end = sents[-1].end if sents else 0
    rest = masked[end:]
    if rest.strip():
        lead = len(rest) - len(rest.lstrip())
        return [Sentence(end + lead, len(masked))]
    return []


def _has_body(sentence: str) -> bool:
    """A Definition/Fixpoint sentence that gives its body with ``:=`` (else it opens a proof)."""
    return ":=" in sentence
