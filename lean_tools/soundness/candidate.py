"""The candidate rule: a candidate file is the problem file with only the proof filled in.

Precisely, with P the parsed problem and C the candidate parsed for P's theorem name:

1. C declares exactly one theorem-like declaration with that name, and no other declaration
   whose name is a look-alike of it (same skeleton, different spelling); Lean names are
   compared without guillemets (``«nat_add»`` is ``nat_add``).
2. Prefix: the text of C before the target splits into *units* (Rocq: sentences; Lean:
   column-0 commands, plus the leading comment/blank chunk). P's units before its target,
   compared with comments removed and whitespace collapsed (``source.normalize``), must all
   appear among C's units, unchanged and in order (``align``); C's other units are helper runs.
   No run may come before the end of P's header. Lean: P's trailing ``open ... in`` /
   ``set_option ... in`` units modify its theorem, so C keeps them directly before the target
   (helpers go before them) and may add there only resource-limit ``set_option ... in`` units.
3. Helpers: every run is screened (``screens``, role ``helpers``) and must be complete (no
   sorry/Admitted). Its declared names must not occur as identifiers in the problem text that
   follows it (later units, the ``in`` chain, the statement, the suffix): a new name there could
   change what that text refers to. Lean: a name a declaration header there only declares
   (``theorem part_b``) is no occurrence, and the other parts of a multi-part problem stated
   after the target (its ``theorem``/``lemma``/``problem`` units) are not read: the target is
   elaborated before them and only the target is judged (``_identifiers``,
   ``_suffix_for_shadowing``). A run placed BEFORE a problem unit (between the problem's
   definitions) may in Rocq hold no ``Require`` at all (it could rebind a name, notation, scope
   or coercion the unit uses; the reference statement is elaborated after the problem's last
   unit, so only the screens guard these runs); in Lean the screens make every scope it opens
   end inside it and forbid a dangling ``... in``. The final run (after P's last unit) may in Rocq
   ``Require`` the modules in ``allowed_requires`` and ``From Hammer Require Import Tactics.``.
4. Declaration: C's declaration prefix (modifiers, keyword, name) equals P's, except that
   theorem-like keywords are interchangeable (``theorem``/``lemma``; ``Theorem``/``Lemma``/...).
5. Statement: equal to P's modulo comments and whitespace.
6. Suffix: the text after the target declaration equals P's (modulo comments/whitespace),
   so nothing is added after the theorem (no later redefinition or re-statement); Lean only:
   besides column-0 read-only commands (``#check``, ``#print [axioms]``, ``#reduce``, ``#synth``).
7. Rocq: the target ends with ``Qed.`` (not ``Defined.``/``Admitted.``/``Abort.``).
8. The proof body is screened (role ``proof``); Lean: ``#print axioms`` of the target inside its
   own body is rejected (``lean_helpers.own_axiom_report``).

Findings the screens mark ``kernel`` (Lean metaprogramming, ``open`` or a read-only ``#``
command inside a proof: ``Finding.kernel``) are not a rejection by themselves: when every finding
is one (``CandidateResult.needs_kernel``), ``verify`` hands the candidate to Lean with the kernel
replay, or answers "needs Lean to judge". In a run placed before a problem unit they are
rejections (``_not_deferred``): the reference statement is elaborated after such a run.

Not covered here: meaning changes that leave the text identical (a helper that changes how
the statement elaborates). Rocq catches those by comparing elaborated types
(``rocq_verify``) and Lean likewise where it is installed (``lean_verify``); without Lean, rule
3's screens (``lean_helpers``: only scoped or trust-neutral constructs, fresh helper names) are
the defence. Helper runs placed between the problem's own definitions are guarded by the screens
and the name rule only (the reference statement sees the same problem constants).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from ..lean.parser import LEAN_COMMAND_START, LEAN_THEOREM_KEYWORDS
from ..parsing import parse_source
from ..rocq.parser import ROCQ_THEOREM_KEYWORDS, rocq_sentences
from ..source import Language, ParseError, SourceFile, mask, normalize
from ..types import Record
from .lean_helpers import SAFE_OPTION, own_axiom_report
from .rocq_helpers import readonly_sentence
from .rocq_screens import screen_rocq_readonly
from .screens import screen
from .shared_screens import skeleton
from .verdict import Finding


@dataclass(frozen=True, slots=True)
class Span:
    """``text[start:end]``: one unit of a file's prefix (rule 2), or a read-only query after the proof."""

    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit with its text normalized (comments removed, whitespace collapsed), for comparison."""

    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class HelperRun:
    """Helper units the candidate placed between the problem's own units: ``text[start:end]``,
    followed by the problem unit of index ``before``."""

    start: int
    end: int
    before: int


class CandidateSplit(Record):
    """What the candidate added, with where it starts (0-based offsets, 1-based lines).

    ``helpers``/``helpers_start``: the final helper run, after the problem's last unit before
    the target (where the verifiers insert the reference statement). ``early_helpers``: the helper
    runs the candidate placed between the problem's own units.
    """

    helpers: str
    helpers_start: int
    helpers_line: int
    proof: str
    proof_line: int
    theorem: str
    early_helpers: tuple[HelperRun, ...] = ()


class CandidateResult(Record):
    split: CandidateSplit | None = None
    findings: tuple[Finding, ...] = ()
    stage: str = "candidate"

    @property
    def ok(self) -> bool:
        return self.split is not None and not self.findings

    @property
    def needs_kernel(self) -> bool:
        """Every finding is one the screens cannot judge (``Finding.kernel``): neither accepted nor
        rejected here; the kernel replay decides (``verify``)."""
        return self.split is not None and bool(self.findings) and all(f.kernel for f in self.findings)


def prefix_units(text: str, end: int, language: Language) -> list[Span]:
    """The units of ``text[:end]`` (see rule 2)."""
    masked = mask(text[:end], language)
    if language == "rocq":
        sents = rocq_sentences(masked)
        rest_start = sents[-1].end if sents else 0
        out = [Span(s.start, s.end) for s in sents]
        if masked[rest_start:].strip():
            out.append(Span(rest_start, end))  # trailing text without a final period
        return out
    starts = [m.start() for m in LEAN_COMMAND_START.finditer(masked)]
    bounds = [0, *[s for s in starts if s > 0], end]
    return [Span(a, b) for a, b in itertools.pairwise(bounds) if b > a]


def _norm_keyword(prefix: str, language: Language) -> str:
    kws = LEAN_THEOREM_KEYWORDS if language == "lean" else ROCQ_THEOREM_KEYWORDS
    alt = "|".join(k for k in kws if k not in ("example", "Example"))
    return re.sub(rf"(?<![\w'.])(?:{alt})(?![\w'])", "THEOREM", normalize(prefix, language))


def _declared_names(helpers: str, language: Language) -> list[str]:
    masked = mask(helpers, language)
    if language == "lean":
        pat = r"(?<![\w'.])(?:theorem|lemma|def|abbrev|problem|determine)\s+(«[^»]*»|[^\s(){}\[\]:⦃⦄,]+)"
    else:
        pat = (
            r"(?<![\w'.])(?:Lemma|Theorem|Fact|Remark|Corollary|Proposition|Property|Example|Definition|Fixpoint|Ltac"
            r"|Inductive|CoInductive|Variant|Record|Structure|Let"
            r"|Ltac2(?:\s+(?:rec|mutable))*)\s+([\w']+)"
        )
    return [n.replace("«", "").replace("»", "") for n in re.findall(pat, masked)]


_LEAN_DECL_HEADER = re.compile(
    r"(?<![\w'.])(?P<kw>theorem|lemma|def|abbrev|axiom|opaque|instance|structure|class|inductive|problem|determine)"
    r"\s+(?P<name>«[^»]*»|[^\s(){}\[\]:⦃⦄,]+)"
)


def _identifiers(text: str, language: Language) -> set[str]:
    """The identifiers of ``text`` and each component of the dotted ones. Lean: the name a
    declaration header declares (``theorem part_b``) is not an occurrence: declaring a name does
    not refer to anything a helper could rebind (a helper of the same full name is Lean's
    ``already declared`` error); every other occurrence of it (a call, a recursive use, a
    statement mentioning it) still is."""
    masked = mask(text, language)
    if language == "lean":
        masked = _LEAN_DECL_HEADER.sub(lambda m: m.group("kw") + " " * (m.end() - m.start("kw") - len(m.group("kw"))), masked)
    toks = set(re.findall(r"[^\W\d][\w'.!?₀-₉]*", masked))
    parts = set()
    for t in toks:
        parts.update(t.split("."))
    return toks | parts


_IN_UNIT = re.compile(
    r"^(?:open|set_option|variable|universe|include|omit|attribute|local|scoped|notation|export)(?![\w'.!?])"
    r"[\s\S]*(?<![\w'.!?])in$"
)
_SAFE_SETOPT_IN = re.compile(r"set_option\s+(?P<opt>\S+\s+\S+)\s+in")


class Alignment(Record):
    """Where the candidate's added text lies relative to the problem's units (rule 2)."""

    helpers_start: int
    """End of the last problem unit before the target: the final helper run starts here."""
    helpers_end: int
    """Start of the target's ``... in`` modifier chain (or of the target): the final run ends here."""
    early: tuple[HelperRun, ...] = ()
    """Helper runs placed before a problem unit."""
    tail_extras: tuple[Span, ...] = ()
    """Units the candidate added to the target's ``in`` chain (safe ``set_option ... in`` only)."""
    error: str = ""
    error_rule: str = "candidate.preamble"
    error_line: int | None = None


def _normalized_units(text: str, end: int, language: Language) -> list[Unit]:
    """The units of ``text[:end]`` that hold more than comments, normalized."""
    return [Unit(u.start, u.end, n) for u in prefix_units(text, end, language) if (n := normalize(text[u.start : u.end], language))]


def _in_tail(units: list[Unit], language: Language) -> int:
    """Index where the trailing run of Lean ``... in`` modifier units starts (len(units) if none)."""
    k = len(units)
    while language == "lean" and k > 0 and _IN_UNIT.match(units[k - 1].text):
        k -= 1
    return k


def align(problem: SourceFile, candidate_text: str, cand: SourceFile) -> Alignment:
    """Match the problem's units, in order, among the candidate's units before the target.

    The problem's units must all appear, unchanged (modulo comments/whitespace), in order; the
    candidate's other units are helper runs. Lean: the problem's trailing ``open ... in`` /
    ``set_option ... in`` units modify the theorem, so the candidate keeps them directly before
    its target (helpers go before them) and may add only safe ``set_option ... in`` units there.
    No helper may come before the end of the problem's header.
    """
    lang = problem.language
    pu = _normalized_units(problem.text, problem.decl_start, lang)
    cu = _normalized_units(candidate_text, cand.decl_start, lang)
    p_tail, c_tail = _in_tail(pu, lang), _in_tail(cu, lang)
    prefix_end = 0  # end of the longest run of leading units equal to the problem's (for errors)
    for c_unit, p_unit in zip(cu, pu, strict=False):
        if c_unit.text != p_unit.text:
            break
        prefix_end = c_unit.end

    def failed(error: str, line: int | None = None) -> Alignment:
        return Alignment(helpers_start=prefix_end, helpers_end=cand.decl_start, error=error, error_line=line)

    want_tail = [u.text for u in pu[p_tail:]]
    extras: list[Span] = []
    j = 0
    for u in cu[c_tail:]:
        n = u.text
        if j < len(want_tail) and n == want_tail[j]:
            j += 1
        elif (m := _SAFE_SETOPT_IN.fullmatch(n)) and SAFE_OPTION.fullmatch(" ".join(m.group("opt").split())):
            extras.append(Span(u.start, u.end))
        else:
            bad = failed(
                f"`{n[:80]}` directly before the theorem modifies its statement (only a resource-limit "
                "`set_option ... in` may be added there)",
                candidate_text.count("\n", 0, u.start) + 1,
            )
            return bad.model_copy(update={"error_rule": "lean.set_option" if n.startswith("set_option") else "lean.command"})
    if j < len(want_tail):
        return failed(f"the problem's `{want_tail[j][:80]}` must stay directly before the theorem")
    main_p = [u.text for u in pu[:p_tail]]
    header_units = sum(1 for u in pu[:p_tail] if u.start < len(problem.header))
    helpers_end = cu[c_tail].start if c_tail < len(cu) else cand.decl_start
    early: list[HelperRun] = []
    run: list[Unit] = []
    k, last_end = 0, 0
    for u in cu[:c_tail]:
        if k < len(main_p) and u.text == main_p[k]:
            if run:
                if k < header_units:
                    return failed(
                        f"header differs from the problem's: expected `{main_p[k][:80]}`, found "
                        f"`{normalize(candidate_text[run[0].start : run[-1].end], lang)[:80]}`",
                        candidate_text.count("\n", 0, run[0].start) + 1,
                    )
                early.append(HelperRun(run[0].start, run[-1].end, k))
                run = []
            k += 1
            last_end = u.end
        else:
            run.append(u)
    if k < len(main_p):
        found = normalize(candidate_text[last_end:helpers_end], lang)[:80] or "(nothing)"
        line = candidate_text.count("\n", 0, last_end) + 1
        return failed(f"header/preamble differs from the problem at line {line}: expected `{main_p[k][:80]}`, found `{found}`", line)
    if run and k < header_units:
        return failed("helpers must follow the problem's header")
    return Alignment(helpers_start=last_end, helpers_end=helpers_end, early=tuple(early), tail_extras=tuple(extras))


def locate(
    problem: SourceFile, candidate_text: str, *, lenient: bool = False
) -> tuple[SourceFile | None, int, str | None]:
    """(parsed candidate, helpers_start, parse failure message).

    ``helpers_start``: the end of the last problem unit before the target in the candidate
    (``align``), where the final helper run begins and where the verifiers put the reference
    statement. ``lenient``: if the theorem name is missing, fall back to the candidate's default
    target (used only to run the proof assistant on rejected cheats).
    """
    lang = problem.language
    try:
        cand = parse_source(candidate_text, lang, theorem=problem.theorem_name)
    except ParseError as e:
        if not lenient:
            return None, 0, f"candidate: {e}"
        try:
            cand = parse_source(candidate_text, lang)
        except ParseError as e2:
            return None, 0, f"candidate: {e2}"
    al = align(problem, candidate_text, cand)
    return cand, al.helpers_start, None


def _split(candidate_text: str, cand: SourceFile, al: Alignment, theorem: str) -> CandidateSplit:
    helpers_start = al.helpers_start
    return CandidateSplit(
        helpers=candidate_text[helpers_start : al.helpers_end],
        helpers_start=helpers_start,
        helpers_line=candidate_text.count("\n", 0, helpers_start) + 1,
        proof=cand.proof,
        proof_line=candidate_text.count("\n", 0, cand.proof_start) + 1,
        theorem=theorem,
        early_helpers=al.early,
    )


def _target_name_finding(candidate_text: str, language: Language, name: str) -> Finding | None:
    """Rule 1: one target; no look-alike of its name."""
    decl_names = _all_decl_names(mask(candidate_text, language), language)
    bare = name.replace("«", "").replace("»", "")
    same = [n for n in decl_names if n == bare]
    if name and len(same) != 1:
        return Finding(rule="candidate.duplicate", message=f"theorem {name} is declared {len(same)} times in the candidate")
    for n in decl_names:
        if name and n != bare and skeleton(n) == skeleton(bare):
            return Finding(rule="lookalike", message=f"declaration {n!r} is a look-alike of the theorem name {name!r}")
    return None


def _target_shape_finding(problem: SourceFile, cand: SourceFile) -> Finding | None:
    """Rules 4-7: the same declaration and statement, the problem's suffix, Rocq's ``Qed.``."""
    lang, name = problem.language, problem.theorem_name
    if _norm_keyword(cand.decl_prefix, lang) != _norm_keyword(problem.decl_prefix, lang):
        return Finding(
            rule="candidate.declaration",
            message=f"declaration `{normalize(cand.decl_prefix, lang)}` differs from the problem's "
            f"`{normalize(problem.decl_prefix, lang)}`",
        )
    if cand.statement_text() != problem.statement_text():
        return Finding(rule="candidate.statement", message=f"the statement of {name} differs from the problem's")
    suffix, _readonly = _suffix_without_readonly(cand.suffix, lang)
    if suffix != _suffix_without_readonly(problem.suffix, lang)[0]:  # both sides alike (`end` units)
        what = (
            "only read-only `#check`/`#print` commands may follow the proof"
            if lang == "lean"
            else "only read-only queries (Print Assumptions, Check, About, Print, Search, Compute, Eval, Locate) may follow the proof"
        )
        return Finding(rule="candidate.suffix", message=f"text after theorem {name} differs from the problem's ({what})")
    if lang == "rocq" and cand.terminator != "Qed.":
        return Finding(
            rule="candidate.terminator",
            message=f"the proof of {name} must end with Qed., found `{cand.terminator or 'nothing'}`",
        )
    return None


def check_candidate(
    problem: SourceFile,
    candidate_text: str,
    *,
    allowed_requires: frozenset[str] = frozenset(),
) -> CandidateResult:
    """Apply rules 1-8. Never raises for a bad candidate; findings explain the rejection.

    ``split`` is set whenever the target could be located, even if a rule failed.
    """
    try:
        cand = parse_source(candidate_text, problem.language, theorem=problem.theorem_name)
    except ParseError as e:
        return CandidateResult(findings=(Finding(rule="candidate.parse", message=f"candidate: {e}"),))
    al = align(problem, candidate_text, cand)
    split = _split(candidate_text, cand, al, problem.theorem_name)
    # Rule 1, then rule 2 (the problem's prefix units appear in order, unchanged; the rest are
    # helper runs), then rules 4-7.
    rejected = _target_name_finding(candidate_text, problem.language, problem.theorem_name)
    if rejected is None and al.error:
        rejected = Finding(rule=al.error_rule, message=al.error, line=al.error_line)
    rejected = rejected or _target_shape_finding(problem, cand)
    if rejected is not None:
        return CandidateResult(split=split, findings=(rejected,))
    # Rules 3 and 8: screens.
    try:
        findings = _screens(problem, cand, split, split.helpers, split.helpers_line, allowed_requires)
    except ParseError as e:  # a slice that does not lex on its own: never accept it
        findings = [Finding(rule="candidate.parse", message=f"candidate: {e}")]
    return CandidateResult(
        split=split,
        findings=tuple(findings),
        stage="screen" if findings else "candidate",
    )


_READONLY_UNIT = re.compile(r"#(?:check|print|reduce|synth)(?![\w'.!?])")
# Lean: a bare `end` / `end Name` after the theorem (a published file closing its `public section`
# or namespace when the problem file leaves it open). Lean 4's `end` only closes a scope: it never
# changes a declaration made before it (section variables are fixed when a declaration is
# elaborated, unlike Rocq's discharge at `End`), and the target is looked up by the full name the
# problem's namespace gives it; an `end` that matches no open scope is a Lean error.
_LEAN_END_UNIT = re.compile(r"end(?:[ \t]+[^\W\d][\w'.]*)?\s*")
_ROCQ_REQUIRE = re.compile(r"(?:From\s+\S+\s+)?Require(?![\w'])")


def _suffix_without_readonly(suffix: str, language: Language) -> tuple[str, list[Span]]:
    """The normalized suffix without its read-only commands, and where those were. Lean: column-0
    ``#check``, ``#print``, ``#print axioms``, ``#reduce``, ``#synth`` (plus bare ``end [Name]``
    units, dropped unscreened: ``_LEAN_END_UNIT``). Rocq: sentences that are
    read-only queries (``Print Assumptions``, ``Check``, ``About``, ``Print``, ``Search``,
    ``Compute``, ``Eval``, ``Locate``: ``rocq_helpers.readonly_sentence``). They print and change
    nothing, and the verdict never reads the candidate's own output (Rocq: ``Print Assumptions`` of
    the target runs in a separate process), so published files that end with them are accepted."""
    if language != "lean":
        masked = mask(suffix, "rocq")
        kept, dropped, pos = [], [], 0
        for sent in rocq_sentences(masked):
            if readonly_sentence(masked[sent.start : sent.end]) is not None:
                kept.append(suffix[pos : sent.start])
                dropped.append(Span(sent.start, sent.end))
                pos = sent.end
        kept.append(suffix[pos:])
        return normalize("".join(kept), language), dropped
    masked = mask(suffix, "lean")
    starts = [m.start() for m in LEAN_COMMAND_START.finditer(masked)]
    bounds = [0, *[x for x in starts if x > 0], len(suffix)]
    kept, dropped = [], []
    for a, b in itertools.pairwise(bounds):
        if _READONLY_UNIT.match(masked, a):
            dropped.append(Span(a, b))
        elif not _LEAN_END_UNIT.fullmatch(masked, a, b):
            kept.append(suffix[a:b])
    return normalize("".join(kept), language), dropped


def _shadowing(helpers: str, lang: Language, later_ids: set[str], line: int, where: str) -> list[Finding]:
    """Helper names that occur as identifiers in ``later_ids`` (the problem text the helpers
    precede): a new name there could change what that text refers to (a local shadowing a
    global, a namespaced ``Foo.bar`` picked by ``x.bar`` field notation), so only names that
    occur nowhere in it are allowed; with that, a dotted name (``theorem Nat.helper``, inside
    ``namespace``) is as safe as a plain one."""
    out = []
    for n in _declared_names(helpers, lang):
        if n in later_ids or n.split(".")[-1] in later_ids:
            out.append(
                Finding(
                    rule="candidate.shadowing",
                    message=f"helper `{n}` reuses a name that occurs in {where}",
                    line=line,
                )
            )
    return out


_LEAN_OTHER_PART = re.compile(r"(?:(?:private|protected|nonrec|noncomputable)\s+)*(?:theorem|lemma|problem)(?![\w'.!?])")


def _suffix_for_shadowing(suffix: str, language: Language) -> str:
    """The problem's text after the target that the shadowing rule reads. Lean: without the other
    parts of a multi-part problem (``theorem``/``lemma``/compfiles ``problem`` units after the
    target): Lean elaborates commands in order and never revisits a declaration, so what a later
    theorem refers to cannot change the target, and the verdict judges the target alone. Every
    other unit after the target (``end``, definitions, ...) still counts; Rocq: all of it."""
    if language != "lean":
        return suffix
    masked = mask(suffix, "lean")
    bounds = [0, *[m.start() for m in LEAN_COMMAND_START.finditer(masked) if m.start() > 0], len(suffix)]
    return "".join(suffix[a:b] for a, b in itertools.pairwise(bounds) if not _LEAN_OTHER_PART.match(masked, a))


def _not_deferred(f: Finding) -> Finding:
    """A finding of a helper run placed before a problem unit, as a rejection (see ``_screens``)."""
    if not f.kernel:
        return f
    what = f"`{f.snippet}`" if f.snippet else "this construct"
    msg = f"{what} before a problem unit is not allowed (the reference statement is elaborated after it, so Lean could not judge it)"
    return f.model_copy(update={"kernel": False, "message": msg})


def _screens(problem, cand, split, helpers, helpers_line, allowed_requires) -> list[Finding]:
    lang, name = problem.language, problem.theorem_name
    text = cand.text
    findings: list[Finding] = []
    pu = _normalized_units(problem.text, problem.decl_start, lang)
    tail_ids = _identifiers(problem.statement + "\n" + _suffix_for_shadowing(problem.suffix, lang), lang)
    tail_ids |= _identifiers("\n".join(u.text for u in pu[_in_tail(pu, lang) :]), lang)
    if helpers.strip():
        findings += screen(
            helpers,
            lang,
            role="helpers",
            line_offset=helpers_line - 1,
            allowed_requires=allowed_requires,
            final=True,
        )
        findings += _shadowing(helpers, lang, tail_ids, helpers_line, "the statement")
    for early in split.early_helpers:
        k = early.before
        run, line = text[early.start : early.end], text.count("\n", 0, early.start) + 1
        later = _identifiers("\n".join(u.text for u in pu[k:]), lang) | tail_ids
        # No deferral to the kernel here: the reference statement is elaborated after these runs,
        # so Lean's statement check would not see what they change.
        findings += [_not_deferred(f) for f in screen(run, lang, role="helpers", line_offset=line - 1)]
        findings += _shadowing(
            run, lang, later, line, f"the problem's text after it (`{pu[k].text[:40]}` ...)" if k < len(pu) else "the statement"
        )
        if lang == "rocq":
            masked_run = mask(run, "rocq")
            for sent in rocq_sentences(masked_run):
                sa = sent.start
                if _ROCQ_REQUIRE.match(masked_run, sa):
                    findings.append(
                        Finding(
                            rule="candidate.preamble",
                            message="a `Require` placed before a problem sentence could rebind a name, notation, scope "
                            "or coercion it uses: put it after the problem's last sentence",
                            line=line + run.count("\n", 0, sa),
                        )
                    )
    _suffix, readonly = _suffix_without_readonly(cand.suffix, lang)
    for span in readonly:
        at = cand.decl_end + span.start
        chunk, line0 = text[at : cand.decl_end + span.end], text.count("\n", 0, at)
        if lang == "rocq":
            findings += screen_rocq_readonly(chunk, line_offset=line0)
        else:
            findings += screen(chunk, lang, role="helpers", line_offset=line0)
    if not cand.proof.strip():
        findings.append(
            Finding(
                rule="candidate.empty",
                message=f"the proof of {name} is empty",
                line=split.proof_line,
            )
        )
    findings += screen(cand.proof, lang, role="proof", line_offset=split.proof_line - 1)
    if lang == "lean":
        findings += own_axiom_report(cand.proof, name, split.proof_line)
    return findings


def _all_decl_names(masked: str, language: Language) -> list[str]:
    if language == "lean":
        pat = (
            r"(?<![\w'.])(?:theorem|lemma|def|abbrev|axiom|opaque|instance|structure|class|inductive|problem|determine)"
            r"\s+(«[^»]*»|[^\s(){}\[\]:⦃⦄,]+)"
        )
    else:
        kws = "|".join(
            (
                *ROCQ_THEOREM_KEYWORDS,
                "Definition",
                "Fixpoint",
                "CoFixpoint",
                "Axiom",
                "Parameter",
                "Conjecture",
                "Hypothesis",
                "Variable",
                "Let",
                "Inductive",
                "Record",
                "Structure",
                "Class",
                "Instance",
            )
        )
        pat = rf"(?<![\w'.])(?:{kws})\s+([\w'\u00a0-\uffff]+)"
    # `«x»` and `x` are one name to Lean: compare without the guillemets.
    return [n.replace("«", "").replace("»", "") for n in re.findall(pat, masked)]
