"""What Rocq text may hold besides declarations: the final helper run and the text after the proof.

Pure functions over MASKED text (comments and strings blanked by ``source.mask``), used by
``rocq_screens.screen_rocq`` before its word rules. Published Rocq developments open sections, set
implicit arguments, declare hint databases and print the theorem's assumptions; none of that can
make a false theorem pass here, for the reasons below, which all rest on two checks of
``rocq_verify``: the reference statement is elaborated BEFORE the final helper run (the probe), and
a separate process compares it with ``constr_eq`` to the target's type and reads ``Print
Assumptions`` of the target. So these allowances hold ONLY for the final helper run (after the
problem's last sentence); helper runs placed between the problem's own sentences keep the strict
rules (there only the screens guard the sentences that follow).

``final_run(masked) -> (blanked, exempt)``: allowed sentences get their command words blanked (same
length, so lines keep their numbers); what is left of each (binders, lemma names, a ``Hint Extern``
tactic) still goes through every word rule (holes, axioms, ``native_*``, ``#[...]``). ``exempt`` maps
the end offset of each allowed sentence to ``"skip"`` (no head rule) or ``"decl"`` (a ``Let``:
judged as a ``Definition``). Allowed, outside helper proofs only:

- ``Section N.`` ... ``End N.``, balanced inside the run, and INSIDE such a section
  ``Variable(s)``/``Hypothesis``/``Hypotheses``/``Context``/``Let``: at ``End`` every lemma of the
  section is generalised over the variables it uses (the kernel discharges them), so no variable
  reaches the theorem as an assumption. An unclosed section (the theorem would sit inside it), an
  ``End`` naming another section, and these commands outside a section (a top-level ``Variable`` is
  an axiom) are not exempt, so the word rules reject them.
- ``[Local] Set``/``Unset`` of an option in ``SAFE_ROCQ_OPTIONS`` (implicit arguments, printing,
  warnings, bullets, goal selector, ...): they steer elaboration or printing only; a target
  statement that elaborates differently fails ``constr_eq``. ``Guard``/``Positivity``/``Universe
  Checking``, ``Definitional UIP``, ``Nested Proofs Allowed`` and every option not named stay
  rejected. ``Global`` is rejected: a ``Global`` option is carried into the query process by
  ``Require`` (measured with coqc 8.16.1: ``Global Unset Printing Notations`` in A.v changes
  ``Check`` output in a file that Requires A; a plain ``Unset`` does not).
- ``Hint Resolve/Immediate/Constructors/Unfold/Rewrite/Extern/Opaque/Transparent ...`` (with
  ``Local``/``Global``/``#[local]``/``#[global]``/``#[export]``) and ``Create HintDb``: hints only
  steer proof search; every term still goes through the kernel. A hint for the database
  ``typeclass_instances`` (an ``Instance`` by another name, which would change elaboration) is not
  exempt.
- ``[Local|Global] Open/Close Scope s``, ``Declare Scope s``, ``Import M`` (of a module already
  loaded; ``Require`` keeps its own rule), ``Arguments ...``, ``Implicit Type(s) ...``,
  ``[Local|Global] Opaque/Transparent names``: notation scopes, implicit status and unfolding hints;
  a statement they re-interpret fails ``constr_eq``, and ``Opaque`` does not stop the kernel from
  unfolding.

- ``Inductive``/``Variant``/``Record``/``Structure``/``CoInductive``: positivity is checked by the
  kernel (``Unset Positivity Checking`` and ``#[bypass_check]`` stay rejected, and a bypass shows in
  ``Print Assumptions``); a coercion a record field declares meets the statement only after the
  reference was elaborated. ``Class`` stays rejected (instance resolution).
- ``Local``/``Global``/``#[local]``/``#[global]``/``#[export]`` before a helper declaration
  (``Local Definition``, ``#[local] Lemma``): locality only decides what a file that Requires this
  one sees; the declaration itself meets the usual rules.
- read-only queries (``Check``, ``Search``, ``Print Assumptions`` ..., see below) among the helpers.

Still rejected everywhere (word rules): ``Notation``/``Infix``, ``Instance``, ``Coercion``,
``Canonical``, ``Module``, ``Export``, ``Program``, ``Axiom``/``Parameter``, ``Declare ML Module``,
``Load``, ``Redirect``, every other option. Notations, instances and coercions would also be caught
by ``constr_eq``; they stay rejected so that two layers, not one, guard the statement's meaning.

``readonly_sentence(sentence) -> str | None``: for the text after the proof, the argument text of a
read-only query (``Print Assumptions X``, ``Print X``, ``Check``, ``About``, ``Search*``,
``Compute``, ``Eval ... in``, ``Locate``), to be screened by the word rules; None for anything else.
Why these may follow the proof: they print and change nothing, and the verdict never reads the
candidate process's output (``Print Assumptions`` of the TARGET runs in the separate query
process), so a ``Print Assumptions`` of another theorem, or printed text, hides nothing.
``Redirect``, ``Print [Sorted] Universes`` (they can write a file), ``Time``/``Fail`` prefixes
and every other command after the proof stay rejected.
"""

from __future__ import annotations

import re

from ..rocq.parser import ROCQ_THEOREM_KEYWORDS, Sentence, rocq_sentences

SAFE_ROCQ_OPTIONS = (
    "Implicit Arguments",
    "Strict Implicit",
    "Strongly Strict Implicit",
    "Contextual Implicit",
    "Reversible Pattern Implicit",
    "Maximal Implicit Insertion",
    "Asymmetric Patterns",
    "Bullet Behavior",
    "Default Goal Selector",
    "Default Proof Using",
    "Suggest Proof Using",
    "Ltac Backtrace",
    "Warnings",
    "Search Output Name Only",
)
"""Options a final-run ``Set``/``Unset`` may name (plus every ``Printing ...`` option): elaboration
hints, printing and messages only (see the module docstring)."""

_LOCALITY = r"(?:(?:Local|Global)\s+|#\[\s*(?:local|global|export)\s*\]\s*)?"
_OPTION = r"(?:" + "|".join(re.escape(o).replace(r"\ ", r"\s+") for o in SAFE_ROCQ_OPTIONS) + r"|Printing(?:\s+[A-Z][\w']*)+)"
# Whole-sentence forms: names/values only, so the whole sentence is blanked.
_WHOLE = re.compile(
    r"(?:(?:Local\s+)?(?:Set|Unset)\s+" + _OPTION + r"(?:\s+\d+)?"
    r"|" + _LOCALITY + r"(?:Open|Close)\s+Scope\s+[\w']+"
    r"|Declare\s+Scope\s+[\w']+"
    r"|Create\s+HintDb\s+[\w']+(?:\s+discriminated)?"
    r"|Import(?:\s+[\w'.]+)+"
    r"|" + _LOCALITY + r"(?:Opaque|Transparent)(?:\s+[\w'.]+)+"
    r")\s*\.$"
)
# Prefix forms: the command words are blanked, the rest is screened by the word rules.
_PREFIX = re.compile(
    r"(?:" + _LOCALITY + r"Hint\s+(?:Resolve|Immediate|Constructors|Unfold|Rewrite|Extern|Opaque|Transparent)(?![\w'])"
    r"|" + _LOCALITY + r"Arguments(?![\w'])"
    r"|Implicit\s+Types?(?![\w'])"
    r")"
)
_IN_SECTION = re.compile(r"(?:Variables?|Hypothes[ie]s|Context)(?![\w'])")
_LET = re.compile(r"Let(?![\w'])")
_SECTION = re.compile(r"Section\s+(?P<name>[\w']+)\s*\.$")
_END = re.compile(r"End\s+(?P<name>[\w']+)\s*\.$")
# A locality prefix on a helper declaration (``Local Definition``, ``#[local] Lemma``): only the
# prefix is blanked, so the declaration meets the usual head rules.
_LOCAL_DECL = re.compile(
    _LOCALITY + r"(?=(?:" + "|".join(ROCQ_THEOREM_KEYWORDS) + r"|Definition|Fixpoint|Ltac2?|Inductive|Variant|Record|Structure)(?![\w']))"
)
# Inductive types and records: positivity is checked by the kernel (a bypass shows in Print
# Assumptions), their names are new, and a coercion a record field declares (``:>``) meets the
# statement only after the reference was elaborated (``constr_eq``). ``Class`` stays rejected.
_TYPE_DECL = re.compile(r"(?:Inductive|CoInductive|Variant|Record|Structure)(?![\w'])")
_RESERVED = re.compile(r"(?<![\w'])__prover")
_TYPECLASS_DB = re.compile(r"(?<![\w'])typeclass_instances(?![\w'])")
_DECL_HEADS = frozenset(ROCQ_THEOREM_KEYWORDS) | {"Definition", "Fixpoint", "Let"}
_HEAD = re.compile(r"(?:#\[[^\]]*\]\s*)?(?:(?:Local|Global)\s+)?(?P<w>[A-Za-z_][\w']*)")


def _blank(chars: list[str], a: int, b: int) -> None:
    for k in range(a, b):
        if chars[k] != "\n":
            chars[k] = " "


def _proof_sentences(masked: str, sents: list[Sentence]) -> set[int]:
    """Indices of sentences inside a helper's proof (from the sentence after a declaration that
    opens one, through its ``Qed.``/``Defined.``): commands there are never exempt."""
    inside: set[int] = set()
    open_proof = False
    for k, sentence in enumerate(sents):
        sent = masked[sentence.start : sentence.end]
        m = _HEAD.match(sent)
        w = m.group("w") if m else ""
        if open_proof:
            inside.add(k)
            if w in ("Qed", "Defined"):
                open_proof = False
            continue
        if w in _DECL_HEADS and (w in ROCQ_THEOREM_KEYWORDS or ":=" not in sent):
            open_proof = True
    return inside


def final_run(masked: str) -> tuple[str, dict[int, str]]:
    """(``masked`` with the allowed sentences' command words blanked, exempt sentence ends).

    See the module docstring for what is allowed and why. Linear in the text.
    """
    sents = rocq_sentences(masked)
    in_proof = _proof_sentences(masked, sents)
    # Balanced sections: match Section/End by name with a stack; only matched pairs count.
    stack: list[tuple[str, int]] = []
    pairs: list[tuple[int, int]] = []
    for k, sentence in enumerate(sents):
        s, e = sentence.start, sentence.end
        if k in in_proof or _RESERVED.search(masked, s, e):
            continue
        sent = masked[s:e]
        if m := _SECTION.match(sent):
            stack.append((m.group("name"), k))
        elif (m := _END.match(sent)) and stack and stack[-1][0] == m.group("name"):
            pairs.append((stack.pop()[1], k))
    inside: set[int] = set()
    for a, b in pairs:
        inside.update(range(a + 1, b))
    chars = list(masked)
    exempt: dict[int, str] = {}
    for a, b in pairs:
        for k in (a, b):
            _blank(chars, sents[k].start, sents[k].end)
            exempt[sents[k].end] = "skip"
    for k, sentence in enumerate(sents):
        s, e = sentence.start, sentence.end
        if k in in_proof or e in exempt or _RESERVED.search(masked, s, e):
            continue  # a sentence naming the verifier's probe gets no allowance (rule rocq.reserved)
        sent = masked[s:e]
        if (loc := _LOCAL_DECL.match(sent)) and loc.end() > 0:
            _blank(chars, s, s + loc.end())
            sent = masked[s + loc.end() : e].lstrip()
        if _TYPE_DECL.match(sent):
            exempt[e] = "skip"  # the whole sentence still meets the word rules
        elif (q := _READONLY.match(sent)) is not None:
            _blank(chars, s, s + q.end())  # a read-only query among the helpers: prints only
            exempt[e] = "skip"
        elif _WHOLE.match(sent):
            _blank(chars, s, e)
            exempt[e] = "skip"
        elif m := (_PREFIX.match(sent) if not _TYPECLASS_DB.search(sent) else None) or (_IN_SECTION.match(sent) if k in inside else None):
            _blank(chars, s, s + m.end())  # the command words only: the rest meets the word rules
            exempt[e] = "skip"
        elif k in inside and _LET.match(sent):
            exempt[e] = "decl"
    return "".join(chars), exempt


_READONLY = re.compile(
    r"(?:Print\s+Assumptions|Print\s+(?:Opaque|Transparent|All)\s+Dependencies|Print(?!\s+(?:Sorted\s+)?Universes)(?=\s)"
    r"|Check|About|Search|SearchPattern|SearchRewrite|SearchHead|Compute|Eval|Locate)(?![\w'])"
)


def readonly_sentence(sentence: str) -> str | None:
    """The argument text of a read-only query sentence (masked), or None (see the module docstring)."""
    s = sentence.strip()
    m = _READONLY.match(s)
    if m is None:
        return None
    return s[m.end() :]
