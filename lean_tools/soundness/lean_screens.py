"""Static screens of Lean text a candidate added (the proof body, helper declarations).

Comments and strings are masked first (``lean_tools.source.mask``), so words inside them
neither trigger nor hide anything; the rules both assistants share are in ``shared_screens``.

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
- ``lean.attribute``: ``@[...]`` other than the trust-neutral ones on a helper
  (``lean_helpers.TRUST_NEUTRAL_ATTRIBUTES``: ``simp``, ``simp↓``, ``grind``, ...).
- ``lean.set_option``: any ``set_option`` except ``maxHeartbeats``/``maxRecDepth``/
  ``synthInstance.maxHeartbeats``/``synthInstance.maxSize`` (so no ``debug.skipKernelTC``);
  every occurrence is checked, also the second of ``set_option A 1 in set_option B x in``.
- ``lean.lexing``: a char literal holding a double quote, a backslash, ``«`` or ``»`` (``'"'``), or a ``«name»``
  holding a quote, a line break or ``--``/``/-``/``-/``. ``source.mask`` lexes these as Lean
  does (``«...»`` is opaque, ``1'"'`` is a number then a char), but they are the only places
  where a lexer disagreement could hide code inside a fake string or comment, so added text
  may not contain them at all.
- ``lean.meta``: the ``Lean.`` namespace (``Lean.Elab``, ``Lean.Expr``), ``IO``, ``unsafe...``, and
  direct environment writes (``addDecl``, ``addAndCompile``, ``setEnv``, ``modifyEnv``, also
  qualified).
- ``lean.raw_string``: raw string literals ``r"..."``/``r#"..."#`` and interpolated strings
  ``s!"..{e}.."``/``m!``/``f!``: the masker does not lex them the way Lean does (raw strings) or
  masks code inside them (interpolation), so they could hide code from the screen.

Needs Lean (``Finding.kernel``; the verdict is then neither accept nor reject without Lean, see
``verify``): ``Lean.`` names, ``open Lean ... in``, the syntax/elaborator commands
(``lean_helpers.KERNEL_COMMANDS``: ``elab macro syntax ...``) and elaborator attributes
(``@[tactic X]``...), ``open`` as a word (inside a proof), and the read-only ``#check``,
``#print``, ``#reduce``, ``#synth`` where the helpers' structure pass did not take them (inside a
proof body). Everything else above is a rejection: ``IO``, ``unsafe``, environment writes,
``#eval``, ``run_tac``, ``notation``, ``initialize`` ...
"""

from __future__ import annotations

import re

from ..source import mask
from .lean_helpers import KERNEL_COMMANDS, SAFE_OPTION, attribute_ok, structure
from .shared_screens import each_match, invisible, line_at, lookalikes, words
from .verdict import Finding

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
    "theorem lemma def abbrev example noncomputable private protected public nonrec "
).split()

_RE_LEAN_HOLE = re.compile(words(_LEAN_HOLES, r"[\w']").pattern.replace("(?![\\w'!?])", "(?![\\w'])"))
_RE_LEAN_NATIVE = re.compile(words(_LEAN_NATIVE, r"[\w']").pattern.replace("(?![\\w'!?])", "(?![\\w'])"))
_RE_LEAN_CMD = words(_LEAN_COMMANDS, r"[\w'.]")
_RE_LEAN_DECL = words(_LEAN_DECLS, r"[\w'.]")
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
        "nonrec",  # `nonrec def f`: the body's `f` is the outer one, not a recursive call
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
# Constructs the screens cannot judge but that are no cheat by themselves (``Finding.kernel``):
# syntax/elaborator definitions and ``open`` (the kernel replay and Lean's statement check judge
# what they do), read-only ``#`` commands (they print; what follows them is screened as usual).
_KERNEL_WORDS = frozenset((*KERNEL_COMMANDS, "open"))
_READONLY_HASH = frozenset(("#check", "#print", "#reduce", "#synth"))
# Writing the environment directly (a declaration no elaborator checked, an axiom): a rejection
# wherever it appears, also as a qualified name (`Lean.addDecl`) inside a metaprogram.
_RE_LEAN_ENV_WRITE = re.compile(
    r"(?<![\w'])(?:addDecl|addDeclCore|addDeclWithoutChecking|addAndCompile|setEnv|modifyEnv)(?![\w'])"
)
_METAPROGRAM_ATTRIBUTE = re.compile(r"\s*(?:tactic|macro|term_elab|command_elab)\s+[^\W\d][\w'.]*\s*")


def screen_lean(text: str, *, role: str = "proof", line_offset: int = 0) -> tuple[Finding, ...]:
    """Screen Lean text a candidate added. ``role``: ``proof`` (a body) or ``helpers`` (declarations)."""
    raw = text
    out = each_match(
        _RE_LEAN_RAW, raw, "lean.raw_string", lambda g: f"raw or interpolated string literal `{g}` in added text", line_offset
    )
    out += invisible(raw, line_offset)
    out += each_match(
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
        out += lookalikes(masked, _lean_rules, role, line_offset)
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
        if word in KERNEL_COMMANDS:
            continue  # a syntax/elaborator definition: the word rules mark it (``Finding.kernel``)
        if word not in _LEAN_COL0_OK and word not in _LEAN_COL0_TACTICS and not dotted and not opens:
            out.append(
                Finding(
                    rule="lean.command",
                    message=f"line starting `{word[:40]}` at column 0 among the helpers is not a declaration "
                    "(indent continuation lines)",
                    line=line_at(masked, m.start(), off),
                    snippet=word[:60],
                )
            )
    return out


def _lean_rules(masked: str, role: str, off: int) -> list[Finding]:
    out: list[Finding] = []

    def add(rule: str, m: re.Match[str], what: str, kernel: bool = False) -> None:
        out.append(
            Finding(
                rule=rule,
                message=what,
                line=line_at(masked, m.start(), off),
                snippet=m.group(0)[:60],
                kernel=kernel,
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
        word = m.group(0)
        if word in _KERNEL_WORDS:
            add("lean.command", m, f"command keyword `{word}` cannot be judged without Lean", kernel=True)
        else:
            add("lean.command", m, f"command keyword `{word}` is not allowed in a proof or helper")
    for m in _RE_LEAN_HASH.finditer(masked):
        where = "inside a proof body (read-only commands go at column 0 after the proof)" if role == "proof" else "here"
        if m.group(0) in _READONLY_HASH:
            add("lean.command", m, f"`{m.group(0)}` command {where} cannot be judged without Lean", kernel=True)
        else:
            add("lean.command", m, f"`{m.group(0)}` command is not allowed {where}")
    for m in _RE_LEAN_ENV_WRITE.finditer(masked):
        add("lean.meta", m, f"`{m.group(0)}` writes the environment directly (a declaration the elaborator never checked)")
    for m in _RE_LEAN_META.finditer(masked):
        if m.group(0) == "Lean.":
            add("lean.meta", m, "`Lean.` (metaprogramming) cannot be judged without Lean", kernel=True)
        else:  # `IO` (file system, processes while Lean elaborates), `unsafe...`
            add("lean.meta", m, f"`{m.group(0)}` is not allowed")
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
        elif role == "helpers" and _METAPROGRAM_ATTRIBUTE.fullmatch(attr.group("body")):
            what = f"attribute `@[{attr.group('body').strip()}]` registers an elaborator: it cannot be judged without Lean"
            add("lean.attribute", attr, what, kernel=True)
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
