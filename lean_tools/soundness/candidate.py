"""The candidate rule: a candidate file is the problem file with only the proof filled in.

Precisely, with P the parsed problem and C the candidate parsed for P's theorem name:

1. C declares exactly one theorem-like declaration with that name, and no other declaration
   whose name is a look-alike of it (same skeleton, different spelling); Lean names are
   compared without guillemets (``«nat_add»`` is ``nat_add``).
2. Prefix: the text of C before the target splits into *units* (Rocq: sentences; Lean:
   column-0 commands, plus the leading comment/blank chunk). P's units before its target,
   compared with comments removed and whitespace collapsed (``source.normalize``), must be
   exactly C's first units, in order. So header (imports) and preamble (definitions,
   Variables, solution abbrevs) are unchanged and nothing is inserted among them.
3. Helpers: C's remaining units before the target (``helpers``) are new declarations. They
   are screened (``screens``, role ``helpers``) and must be complete (no sorry/Admitted);
   Rocq only: ``Require`` of modules the caller lists in ``allowed_requires`` (default none);
   their declared names must not occur as identifiers in the theorem statement.
4. Declaration: C's declaration prefix (modifiers, keyword, name) equals P's, except that
   theorem-like keywords are interchangeable (``theorem``/``lemma``; ``Theorem``/``Lemma``/...).
5. Statement: equal to P's modulo comments and whitespace.
6. Suffix: the text after the target declaration equals P's (modulo comments/whitespace),
   so nothing is added after the theorem (no later redefinition or re-statement).
7. Rocq: the target ends with ``Qed.`` (not ``Defined.``/``Admitted.``/``Abort.``).
8. The proof body is screened (role ``proof``).

Not covered here: meaning changes that leave the text identical (a helper that changes how
the statement elaborates). Rocq catches those by comparing elaborated types
(``rocq_verify``); for Lean rule 3's screen (no notation/instance/attribute/open/namespace in
helpers, fresh helper names) is the defence.
"""

from __future__ import annotations

import itertools
import re

from ..source import (
    LEAN_COMMAND_START,
    LEAN_THEOREM_KEYWORDS,
    ROCQ_THEOREM_KEYWORDS,
    Language,
    ParseError,
    SourceFile,
    mask,
    normalize,
    parse_source,
    rocq_sentences,
)
from ..types import Record
from .screens import screen, skeleton
from .verdict import Finding


class CandidateSplit(Record):
    """What the candidate added, with where it starts (0-based offsets, 1-based lines)."""

    helpers: str
    helpers_start: int
    helpers_line: int
    proof: str
    proof_line: int
    theorem: str


class CandidateResult(Record):
    split: CandidateSplit | None = None
    findings: tuple[Finding, ...] = ()
    stage: str = "candidate"

    @property
    def ok(self) -> bool:
        return self.split is not None and not self.findings


def _units(text: str, end: int, language: Language) -> list[tuple[int, int]]:
    """(start, end) of the units of ``text[:end]`` (see rule 2)."""
    masked = mask(text[:end], language)
    if language == "rocq":
        sents = rocq_sentences(masked)
        rest_start = sents[-1][1] if sents else 0
        out = list(sents)
        if masked[rest_start:].strip():
            out.append((rest_start, end))  # trailing text without a final period
        return out
    starts = [m.start() for m in LEAN_COMMAND_START.finditer(masked)]
    bounds = [0, *[s for s in starts if s > 0], end]
    return [(a, b) for a, b in itertools.pairwise(bounds) if b > a]


def _norm_keyword(prefix: str, language: Language) -> str:
    kws = LEAN_THEOREM_KEYWORDS if language == "lean" else ROCQ_THEOREM_KEYWORDS
    alt = "|".join(k for k in kws if k not in ("example", "Example"))
    return re.sub(rf"(?<![\w'.])(?:{alt})(?![\w'])", "THEOREM", normalize(prefix, language))


def _declared_names(helpers: str, language: Language) -> list[str]:
    masked = mask(helpers, language)
    if language == "lean":
        pat = r"(?<![\w'.])(?:theorem|lemma|def|abbrev)\s+(«[^»]*»|[^\s(){}\[\]:⦃⦄,]+)"
    else:
        pat = r"(?<![\w'.])(?:Lemma|Theorem|Fact|Remark|Corollary|Proposition|Property|Example|Definition|Fixpoint|Ltac)\s+([\w']+)"
    return [n.replace("«", "").replace("»", "") for n in re.findall(pat, masked)]


def _identifiers(text: str, language: Language) -> set[str]:
    masked = mask(text, language)
    toks = set(re.findall(r"[^\W\d][\w'.!?₀-₉]*", masked))
    parts = set()
    for t in toks:
        parts.update(t.split("."))
    return toks | parts


def locate(
    problem: SourceFile, candidate_text: str, *, lenient: bool = False
) -> tuple[SourceFile | None, int, str | None]:
    """(parsed candidate, helpers_start, parse failure message).

    ``helpers_start`` is the end of the longest run of leading candidate units equal to the
    problem's prefix units. ``lenient``: if the theorem name is missing, fall back to the
    candidate's default target (used only to run the proof assistant on rejected cheats).
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
    pu = _units(problem.text, problem.decl_start, lang)
    pn = [x for x in (normalize(problem.text[a:b], lang) for a, b in pu) if x]
    k, matched_end = 0, 0
    for a, b in _units(candidate_text, cand.decl_start, lang):
        if k == len(pn):
            break
        text_n = normalize(candidate_text[a:b], lang)
        if text_n and text_n != pn[k]:
            break
        if text_n:
            k += 1
        matched_end = b
    return cand, matched_end, None


def check_candidate(
    problem: SourceFile,
    candidate_text: str,
    *,
    allowed_requires: frozenset[str] = frozenset(),
) -> CandidateResult:
    """Apply rules 1-8. Never raises for a bad candidate; findings explain the rejection.

    ``split`` is set whenever the target could be located, even if a rule failed.
    """
    lang = problem.language
    name = problem.theorem_name
    cand, helpers_start, err = locate(problem, candidate_text)
    if cand is None:
        return CandidateResult(findings=(Finding(rule="candidate.parse", message=err or "candidate: unparsable"),))
    helpers = candidate_text[helpers_start : cand.decl_start]
    helpers_line = candidate_text.count("\n", 0, helpers_start) + 1
    split = CandidateSplit(
        helpers=helpers,
        helpers_start=helpers_start,
        helpers_line=helpers_line,
        proof=cand.proof,
        proof_line=candidate_text.count("\n", 0, cand.proof_start) + 1,
        theorem=name,
    )

    def fail(rule: str, message: str, line: int | None = None) -> CandidateResult:
        return CandidateResult(split=split, findings=(Finding(rule=rule, message=message, line=line),))

    # Rule 1: one target; no look-alike of its name.
    decl_names = _all_decl_names(mask(candidate_text, lang), lang)
    bare = name.replace("«", "").replace("»", "")
    same = [n for n in decl_names if n == bare]
    if name and len(same) != 1:
        return fail(
            "candidate.duplicate",
            f"theorem {name} is declared {len(same)} times in the candidate",
        )
    for n in decl_names:
        if name and n != bare and skeleton(n) == skeleton(bare):
            return fail(
                "lookalike",
                f"declaration {n!r} is a look-alike of the theorem name {name!r}",
            )
    # Rule 2: the problem's prefix units come first, unchanged.
    pu = _units(problem.text, problem.decl_start, lang)
    pn = [x for x in (normalize(problem.text[a:b], lang) for a, b in pu) if x]
    matched = [
        x for x in (normalize(candidate_text[a:b], lang) for a, b in _units(candidate_text, helpers_start, lang)) if x
    ]
    if matched != pn:
        k = len(matched)
        found = normalize(helpers, lang)[:80] or "(nothing)"
        want = pn[k][:80] if k < len(pn) else ""
        return fail(
            "candidate.preamble",
            f"header/preamble differs from the problem at line {helpers_line}: expected `{want}`, found `{found}`",
            helpers_line,
        )
    # Rules 4-7.
    if _norm_keyword(cand.decl_prefix, lang) != _norm_keyword(problem.decl_prefix, lang):
        return fail(
            "candidate.declaration",
            f"declaration `{normalize(cand.decl_prefix, lang)}` differs from the problem's `{normalize(problem.decl_prefix, lang)}`",
        )
    if cand.statement_text() != problem.statement_text():
        return fail("candidate.statement", f"the statement of {name} differs from the problem's")
    if normalize(cand.suffix, lang) != normalize(problem.suffix, lang):
        return fail(
            "candidate.suffix",
            f"text after theorem {name} differs from the problem's (nothing may follow the proof)",
        )
    if lang == "rocq" and cand.terminator != "Qed.":
        return fail(
            "candidate.terminator",
            f"the proof of {name} must end with Qed., found `{cand.terminator or 'nothing'}`",
        )
    # Rules 3 and 8: screens.
    try:
        findings = _screens(problem, cand, split, helpers, helpers_line, allowed_requires)
    except ParseError as e:  # a slice that does not lex on its own: never accept it
        findings = [Finding(rule="candidate.parse", message=f"candidate: {e}")]
    return CandidateResult(
        split=split,
        findings=tuple(findings),
        stage="screen" if findings else "candidate",
    )


def _screens(problem, cand, split, helpers, helpers_line, allowed_requires) -> list[Finding]:
    lang, name = problem.language, problem.theorem_name
    findings: list[Finding] = []
    if helpers.strip():
        findings += screen(
            helpers,
            lang,
            role="helpers",
            line_offset=helpers_line - 1,
            allowed_requires=allowed_requires,
        )
        stmt_ids = _identifiers(problem.statement, lang)
        for n in _declared_names(helpers, lang):
            if n in stmt_ids or n.split(".")[-1] in stmt_ids:
                findings.append(
                    Finding(
                        rule="candidate.shadowing",
                        message=f"helper `{n}` reuses a name that occurs in the statement",
                        line=helpers_line,
                    )
                )
            if lang == "lean" and "." in n.strip("«»"):
                findings.append(
                    Finding(
                        rule="candidate.shadowing",
                        message=f"helper `{n}` must have a plain (non-namespaced) name",
                        line=helpers_line,
                    )
                )
    if not cand.proof.strip():
        findings.append(
            Finding(
                rule="candidate.empty",
                message=f"the proof of {name} is empty",
                line=split.proof_line,
            )
        )
    findings += screen(cand.proof, lang, role="proof", line_offset=split.proof_line - 1)
    return findings


def _all_decl_names(masked: str, language: Language) -> list[str]:
    if language == "lean":
        pat = r"(?<![\w'.])(?:theorem|lemma|def|abbrev|axiom|opaque|instance|structure|class|inductive)\s+(«[^»]*»|[^\s(){}\[\]:⦃⦄,]+)"
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
