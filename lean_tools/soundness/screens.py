"""Static screens: pure functions over the text a candidate ADDED to the problem.

The added text is the proof body of the target theorem plus any helper declarations placed
before it (see ``candidate.py``). Comments and strings are masked first
(``lean_tools.source.mask``), so words inside them neither trigger nor hide anything.
Each function returns ``Finding``s (empty tuple = clean); each rule is named.

Defences, Lean (``screen_lean``):
- ``lean.hole``: ``sorry``/``sorryAx``/``admit``, the ``stop`` tactic (``repeat sorry``) and the
  compiler's axioms ``lcProof``/``lcUnreachable``/... anywhere (``«sorryAx»`` included: the
  guillemets are dropped before matching).
- ``lean.native``: ``native_decide``, ``decide +native``, ``Lean.ofReduceBool``/``ofReduceNat``,
  ``trustCompiler``, ``implemented_by``, ``extern``, ``csimp``, ``bv_decide``/``bv_check``
  (compiler-trusting proofs).
- ``lean.command``: command keywords that could change the environment or run code:
  ``axiom opaque instance attribute macro syntax elab notation infix... import open
  namespace section end universe variable local scoped class structure inductive
  initialize run_cmd ... mutual unsafe partial meta``, the Batteries/Mathlib commands that
  declare names, syntax or hints (``alias unif_hint binder_predicate irreducible_def
  mk_iff_of_inductive_prop register_* declare_* ...``; keywords, so no honest identifier), any
  ``#command`` (``#eval``, ``#print``, ``#exit``...), and declaration keywords inside a proof
  body. Helpers only: a line that starts at column 0 with a word must start a declaration
  (``theorem lemma def abbrev example``, modifiers, safe ``set_option``, ``termination_by``,
  ``decreasing_by``, ``where``), so a command no list names yet cannot precede the theorem
  (Lean has no elaborated-statement check; see ``candidate.py``).
- ``lean.attribute``: ``@[...]`` other than ``@[simp]`` on a helper.
- ``lean.set_option``: any ``set_option`` except ``maxHeartbeats``/``maxRecDepth``/
  ``synthInstance.maxHeartbeats``/``synthInstance.maxSize`` (so no ``debug.skipKernelTC``);
  every occurrence is checked, also the second of ``set_option A 1 in set_option B x in``.
- ``lean.lexing``: a char literal holding a double quote, a backslash, ``«`` or ``»`` (``'"'``), or a ``«name»``
  holding a quote, a line break or ``--``/``/-``/``-/``. ``source.mask`` lexes these as Lean
  does (``«...»`` is opaque, ``1'"'`` is a number then a char), but they are the only places
  where a lexer disagreement could hide code inside a fake string or comment, so added text
  may not contain them at all.
- ``lean.meta``: the ``Lean.`` namespace (``Lean.Elab``, ``addDecl``, environment access), ``IO``.
- ``lean.raw_string``: raw string literals ``r"..."``/``r#"..."#`` and interpolated strings
  ``s!"..{e}.."``/``m!``/``f!``: the masker does not lex them the way Lean does (raw strings) or
  masks code inside them (interpolation), so they could hide code from the screen.

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

Both: ``invisible`` (zero-width / bidi control characters), ``lookalike`` (a banned word
spelled with Cyrillic/Greek/full-width look-alike letters: screens run again on a skeleton).
"""

from __future__ import annotations

import re
import unicodedata

from ..rocq.parser import ROCQ_THEOREM_KEYWORDS, Sentence, rocq_sentences
from ..source import Language, mask
from .lean_helpers import SAFE_OPTION, attribute_ok, structure
from .rocq_helpers import final_run, readonly_sentence
from .verdict import Finding

_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u00ad\u180e]")
_HOMOGLYPHS = str.maketrans(
    "аеорсухіјѕԁһӏɡոмтквнАВЕКМНОРСТХορνικΑΒΕΖΗΙΚΜΝΟΡΤΧΥı",
    "aeopcyxijsdhlgnmtkbhABEKMHOPCTXopvikABEZHIKMNOPTXYi",
)


def skeleton(text: str) -> str:
    """NFKC-normalised text with common Cyrillic/Greek look-alikes mapped to Latin (same length not kept)."""
    return unicodedata.normalize("NFKC", text).translate(_HOMOGLYPHS)


def _line(text: str, i: int, offset: int) -> int:
    return text.count("\n", 0, i) + 1 + offset


def _each_match(pattern: re.Pattern[str], text: str, rule: str, message, offset: int) -> list[Finding]:
    """A finding ``rule`` per match of ``pattern`` in ``text``; ``message`` maps the matched text."""
    return [Finding(rule=rule, message=message(m.group(0)), line=_line(text, m.start(), offset)) for m in pattern.finditer(text)]


def _invisible(text: str, offset: int) -> list[Finding]:
    return _each_match(_INVISIBLE, text, "invisible", lambda g: f"invisible character U+{ord(g):04X}", offset)


def _words(pattern_words: list[str], left: str) -> re.Pattern[str]:
    alt = "|".join(sorted(map(re.escape, pattern_words), key=len, reverse=True))
    return re.compile(rf"(?<!{left})(?:{alt})(?![\w'!?])")


# --- Lean -----------------------------------------------------------------------------------

_LEAN_HOLES = ["sorry", "sorryAx", "admit", "stop", "lcProof", "lcUnreachable", "lcCast", "lcErased", "lcAny"]
_LEAN_NATIVE = (  # noqa: SIM905 - one word list, kept compact
    "native_decide ofReduceBool ofReduceNat reduceBool reduceNat trustCompiler implemented_by extern csimp native "
    "bv_decide bv_check "
).split()
_LEAN_COMMANDS = (  # noqa: SIM905 - one word list, kept compact
    "axiom opaque instance attribute macro macro_rules syntax elab elab_rules by_elab notation "
    "notation3 infix infixl infixr prefix postfix declare_syntax_cat import export open namespace section "
    "end universe universes variable variables local scoped class structure inductive coinductive "
    "initialize builtin_initialize run_cmd run_tac run_elab run_meta mutual unsafe partial meta deriving "
    "include omit addDecl addAndCompile add_decl_doc register_tactic_tag elab_stx simproc dsimproc "
    "simproc_decl dsimproc_decl grind_pattern "
    # Lean/Batteries/Mathlib commands that declare names, syntax, hints or options (keywords, so
    # never an honest identifier); matched anywhere because Lean commands need no column 0.
    "alias unif_hint binder_predicate binder_predicates irreducible_def proof_wanted seal unseal recall "
    "compile_inductive compile_def library_note assert_not_exists assert_exists suppress_compilation "
    "unsuppress_compilation initialize_simps_projections mk_iff_of_inductive_prop add_aesop_rules "
    "erase_aesop_rules declare_aesop_rule_sets register_option register_builtin_option register_simp_attr "
    "register_label_attr declare_simp_like_tactic declare_config_elab declare_command_config_elab init_quot "
    "builtin_simproc builtin_dsimproc builtin_simproc_decl builtin_dsimproc_decl builtin_grind_propagator "
    "init_grind_norm test_extern extend_docs recommended_spelling tactic_extension register_hint "
    "gen_injective_theorems% "
).split()
_LEAN_DECLS = (  # noqa: SIM905 - one word list, kept compact
    "theorem lemma def abbrev example noncomputable private protected public "
).split()

_RE_LEAN_HOLE = re.compile(_words(_LEAN_HOLES, r"[\w']").pattern.replace("(?![\\w'!?])", "(?![\\w'])"))
_RE_LEAN_NATIVE = re.compile(_words(_LEAN_NATIVE, r"[\w']").pattern.replace("(?![\\w'!?])", "(?![\\w'])"))
_RE_LEAN_CMD = _words(_LEAN_COMMANDS, r"[\w'.]")
_RE_LEAN_DECL = _words(_LEAN_DECLS, r"[\w'.]")
_RE_LEAN_HASH = re.compile(r"#[A-Za-z_][\w'.!?]*")
_RE_LEAN_ATTR = re.compile(r"@\[(?P<body>[^\]]{0,2000})\]")
_RE_LEAN_ATTR_OPEN = re.compile(r"@\[")
_RE_LEAN_SETOPT = re.compile(r"(?<![\w'.])set_option(?![\w'])")
_RE_LEAN_SAFE_SETOPT = re.compile(r"\s+" + SAFE_OPTION.pattern + r"\s+in(?![\w'])")
# Raw text a Lean lexer and ours could split differently: a char literal holding a quote,
# escape or guillemet, and a «...» name holding comment/string characters or a line break.
_RE_LEAN_AMBIGUOUS = re.compile(r"'[\"«»]'|'\\|«[^»]*?(?:[\"\n«]|--|/-|-/)")
_LEAN_COL0_OK = frozenset(
    {
        "theorem",
        "lemma",
        "def",
        "abbrev",
        "example",
        "noncomputable",
        "private",
        "protected",
        "public",  # the module system's visibility modifier (`public lemma`, `public def`)
        "set_option",
        "termination_by",
        "decreasing_by",
        "where",
    }
)
_LEAN_COL0_TACTICS = frozenset(
    (  # noqa: SIM905 - one word list, kept compact
        # Lean core / Batteries / Mathlib tactics and term keywords a proof may put at column 0
        # (a `by` block or a term may start at column 0). Not command keywords, so a line starting
        # with one of these continues the declaration above it.
        "by fun λ show have haveI let letI calc match if then else do from at with using exact exact? "
        "apply apply? refine refine' intro intros rintro rcases obtain cases cases' induction induction' "
        "rw rwa rewrite erw simp simp_all simpa simp? dsimp norm_num nlinarith linarith positivity "
        "polyrith omega decide ring ring_nf field_simp push_cast norm_cast exact_mod_cast "
        "assumption_mod_cast aesop tauto trivial rfl constructor use exists existsi left right split_ifs "
        "split by_contra by_contra! by_cases contrapose contrapose! push_neg specialize set generalize "
        "subst clear revert unfold delta change congr gcongr ext funext symm trans exfalso absurd "
        "contradiction assumption all_goals any_goals first try repeat iterate case next focus "
        "nth_rewrite nth_rw conv interval_cases fin_cases zify qify lift filter_upwards norm_num1 bound "
        "infer_instance exacts constructorm casesm rename_i rename injection simp_rw subst_vars "
        "linear_combination nlinarith! field_simp! apply_fun choose mono rel abel group noncomm_ring "
        "on_goal pick_goal swap rotate_left rotate_right show_term suffices refine_lift "
    ).split()
)
# A line right after one of these must continue a term or tactic block (a command keyword there
# is a parse error, not a new command), so any word may start it at column 0.
_RE_LEAN_OPENS_TERM = re.compile(r"(?:(?<![\w'.!?])(?:by|from|then|else|do)|:=|=>|<\||[(,$])$")
_RE_LEAN_META = re.compile(r"(?<![\w'])(?:Lean\.|IO(?![\w'])|unsafe\w*)")
_RE_LEAN_RAW = re.compile(r"(?<![\w'])(?:r#*|[a-z]!)\"")


def screen_lean(text: str, *, role: str = "proof", line_offset: int = 0) -> tuple[Finding, ...]:
    """Screen Lean text a candidate added. ``role``: ``proof`` (a body) or ``helpers`` (declarations)."""
    raw = text
    out = _each_match(
        _RE_LEAN_RAW, raw, "lean.raw_string", lambda g: f"raw or interpolated string literal `{g}` in added text", line_offset
    )
    out += _invisible(raw, line_offset)
    out += _each_match(
        _RE_LEAN_AMBIGUOUS,
        raw,
        "lean.lexing",
        lambda g: f"`{g[:20]}`: a char literal with a quote/escape/guillemet or a «name» with "
        "comment/string characters could be lexed differently by Lean and by the screens",
        line_offset,
    )
    # «name» is the identifier `name` to Lean: drop the guillemets so `«sorryAx»` is screened as
    # `sorryAx` and `«Lean».x` as `Lean.x` (only « and » go, so line numbers are unchanged).
    masked = mask(raw, "lean").replace("«", "").replace("»", "")
    if role == "helpers":
        masked, found = structure(masked, line_offset)  # open/set_option ... in, sections, #print...
        out += found
    out += _lean_rules(masked, role, line_offset)
    if role == "helpers":
        out += _lean_column0(masked, line_offset)
    if not out:
        out += _lookalikes(masked, _lean_rules, role, line_offset)
    return tuple(out)


def _lean_column0(masked: str, off: int) -> list[Finding]:
    """Helpers: every line starting at column 0 with a word begins a declaration (``theorem``,
    ``lemma``, ``def``, ``abbrev``, ``example``, their modifiers, a safe ``set_option``), or is a
    ``termination_by``/``decreasing_by``/``where`` clause, or continues a helper's proof: a
    column-0 tactic block or term is legal Lean, so a line may start with a known tactic or term
    keyword (``_LEAN_COL0_TACTICS``), a dotted name (``Nat.le_refl 1``; no command keyword has a
    dot), or any word right after a line ending in ``:=``/``by``/``=>``/``(``/``,`` (there Lean
    parses a term or a first tactic, and a command keyword would be a parse error). The
    constructs of ``lean_helpers`` are blanked before this rule. Without Lean there is no
    elaborated-statement check here, so an unknown command before the theorem (one no word
    list names yet) must not pass: any other word at column 0 is rejected (indent it)."""
    out = []
    for m in re.finditer(r"^([^\W\d]|#|`)[\w'.!?]*", masked, re.MULTILINE):
        word = m.group(0)
        dotted = "." in word.strip(".") and not word.startswith("#")  # `Nat.le_refl 1`: a term, no command
        prev = masked[max(0, m.start() - 2000) : m.start()].rstrip()
        opens = _RE_LEAN_OPENS_TERM.search(prev[-12:]) is not None  # the line must be a term/tactic
        if word not in _LEAN_COL0_OK and word not in _LEAN_COL0_TACTICS and not dotted and not opens:
            out.append(
                Finding(
                    rule="lean.command",
                    message=f"line starting `{word[:40]}` at column 0 among the helpers is not a declaration "
                    "(indent continuation lines)",
                    line=_line(masked, m.start(), off),
                    snippet=word[:60],
                )
            )
    return out


def _lean_rules(masked: str, role: str, off: int) -> list[Finding]:
    out: list[Finding] = []

    def add(rule: str, m: re.Match[str], what: str) -> None:
        out.append(
            Finding(
                rule=rule,
                message=what,
                line=_line(masked, m.start(), off),
                snippet=m.group(0)[:60],
            )
        )

    for m in _RE_LEAN_HOLE.finditer(masked):
        add("lean.hole", m, f"`{m.group(0)}` leaves the proof unfinished")
    for m in _RE_LEAN_NATIVE.finditer(masked):
        add(
            "lean.native",
            m,
            f"`{m.group(0)}` trusts the compiler instead of the kernel",
        )
    for m in _RE_LEAN_CMD.finditer(masked):
        add(
            "lean.command",
            m,
            f"command keyword `{m.group(0)}` is not allowed in a proof or helper",
        )
    for m in _RE_LEAN_HASH.finditer(masked):
        where = "inside a proof body (read-only commands go at column 0 after the proof)" if role == "proof" else "here"
        add("lean.command", m, f"`{m.group(0)}` command is not allowed {where}")
    for m in _RE_LEAN_META.finditer(masked):
        add("lean.meta", m, f"`{m.group(0)}` (metaprogramming / IO) is not allowed")
    for m in _RE_LEAN_SETOPT.finditer(masked):  # each occurrence, so `... in set_option X in` is seen
        if not _RE_LEAN_SAFE_SETOPT.match(masked, m.end()):
            add(
                "lean.set_option",
                m,
                "only `set_option OPTION VALUE in` with a resource limit (maxHeartbeats, maxRecDepth, "
                "synthInstance.*) or a linter/pp/trace option is allowed",
            )
    for start in _RE_LEAN_ATTR_OPEN.finditer(masked):
        attr = _RE_LEAN_ATTR.match(masked, start.start())
        if attr is None:  # no `]` within 2,000 characters: never read as a trust-neutral attribute
            add("lean.attribute", start, "attribute list `@[...` is unterminated or too long")
        elif role != "helpers" or not attribute_ok(attr.group("body"), in_scope=False):
            add(
                "lean.attribute",
                attr,
                f"attribute `@[{attr.group('body').strip()}]` is not allowed",
            )
    if role == "proof":
        for m in _RE_LEAN_DECL.finditer(masked):
            add(
                "lean.command",
                m,
                f"declaration keyword `{m.group(0)}` inside a proof body",
            )
    return out


# --- Rocq -----------------------------------------------------------------------------------

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

_RE_ROCQ_HOLE = _words(_ROCQ_HOLES, r"[\w'.]")
_RE_ROCQ_BANNED = _words(_ROCQ_BANNED_WORDS, r"[\w'.]")
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
    out = _invisible(text, line_offset)
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
        out += _lookalikes(masked, lambda sk, r, o: _rocq_rules(sk, r, o, exempt if len(sk) == len(masked) else {}), role, line_offset)
    return tuple(out)


def screen_rocq_readonly(text: str, *, line_offset: int = 0) -> tuple[Finding, ...]:
    """Screen one read-only query sentence placed after the proof (``Print Assumptions``,
    ``Check``, ``Compute``...; ``rocq_helpers.readonly_sentence``): its argument text goes through
    the word rules (no ``admit``, ``native_compute``, axioms, attributes, commands inside it)."""
    out = _invisible(text, line_offset)
    args = readonly_sentence(mask(text, "rocq"))
    if args is None:
        return (Finding(rule="candidate.suffix", message="only read-only queries may follow the proof", line=line_offset + 1),)
    out += _rocq_word_rules(args, line_offset)
    if not out:
        out += _lookalikes(args, lambda sk, _role, off: _rocq_word_rules(sk, off), "proof", line_offset)
    return tuple(out)


def _lookalikes(masked: str, rules, role: str, line_offset: int) -> list[Finding]:
    """Defence: look-alike characters. Re-run ``rules`` on the ASCII skeleton of the text, so a
    banned word spelled with Unicode look-alikes (Cyrillic ``а``, fullwidth letters) is still found."""
    sk = skeleton(masked)
    if sk == masked:
        return []
    return [
        Finding(rule="lookalike", message=f"look-alike spelling: {f.message}", line=f.line, snippet=f.snippet)
        for f in rules(sk, role, line_offset)
    ]


def _rocq_word_rules(masked: str, off: int) -> list[Finding]:
    """The rules that hold for every word of added text, whatever sentence it is in."""
    out: list[Finding] = []

    def add(rule: str, pos: int, what: str, snippet: str = "") -> None:
        out.append(
            Finding(
                rule=rule,
                message=what,
                line=_line(masked, pos, off),
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
        out.append(Finding(rule=rule, message=what, line=_line(masked, pos, off), snippet=snippet[:60]))

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


def screen(
    text: str,
    language: Language,
    *,
    role: str = "proof",
    line_offset: int = 0,
    allowed_requires: frozenset[str] = frozenset(),
    final: bool = False,
) -> tuple[Finding, ...]:
    """Dispatch to ``screen_lean``/``screen_rocq`` (``final``: Rocq's final helper run)."""
    if language == "lean":
        return screen_lean(text, role=role, line_offset=line_offset)
    return screen_rocq(text, role=role, line_offset=line_offset, allowed_requires=allowed_requires, final=final)
