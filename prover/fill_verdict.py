"""The verdict on a filled project file, in its own context.

A filled hole counts as ``proved`` only when all of these hold (each a defence):
- **Nothing outside the filled bodies changed**: the output is the original with each filled
  hole's body (from after its ``Proof`` sentence to its terminator) replaced, byte for byte
  elsewhere; the new body ends at its first terminator sentence, which must be ``Qed.``
  (``Defined.`` for a definition), so a body cannot end its lemma early and add text after it.
- **The body is tactics only**: the proof screens (``lean_tools.soundness.rocq_screens.screen_rocq``,
  role ``proof``) reject commands inside it: ``End``/``Section``/``Module`` that would leave the
  lemma's scope, ``Require``, ``Set``/``Unset``, ``Local``/``Global`` commands, notations and hints,
  ``Abort`` with a second statement, ``admit``/``Admitted``, axioms.
- **It compiles**: the whole file in a fresh sandboxed ``coqc`` with the project's flags.
- **Only allowed assumptions**: ``Print Assumptions`` of the lemma's qualified name, run in a
  separate ``coqc`` on the compiled file, lists only the standard whitelist
  (``lean_tools.soundness.axioms``) and axioms the unmodified project declares itself (``Axiom``/
  ``Parameter``/``Conjecture`` sentences in its ``.v`` files: listed in the report). Any other
  entry is an admitted lemma the proof rests on: the hole is ``proved_assuming`` those, never
  ``proved``.
- **An added ``Require`` leaves the statements as written** (``prover.fill_statements``): the
  same text can mean another statement once a library is loaded (loading ``Lia`` drops the
  argument scope of ``Nat.of_uint``). When lines were added, each filled lemma's type, and each
  definition of the file it names, is printed with ``Set Printing All`` at the end of the
  original and at the end of the original with the added lines, holes admitted in both (so a
  section generalises alike), each in a fresh ``coqc`` with a separate query step. Any
  difference, or an original that does not compile, rejects the file.
A later hole cannot be used by an earlier proof: Rocq has no forward references, and the body
screens forbid declaring anything.

Not covered: the project's axioms are matched by their short name.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from lean_tools.rocq.holes import Hole, find_holes, insert_requires, requires_point
from lean_tools.rocq.parser import rocq_sentences
from lean_tools.source import mask
from lean_tools.types import Record

from .fill_statements import statement_failure
from .records import HoleResult

_TERMINATOR = re.compile(r"\A(?:[-+*{}\s]*)(Qed|Defined|Admitted|Abort|Save)\b")
_MARK = "PROVER-ASSUMPTIONS-OF"


def split_bodies(original: str, output: str, filled: Sequence[Hole]) -> list[str] | str:
    """The new bodies of ``filled`` (original offsets, file order) in ``output``, or the reason
    the output differs from the original outside those bodies. The body of an ``admitted`` hole
    runs from after its ``Proof`` sentence to its terminator; that of an ``admit`` hole is the one
    ``{ ... }`` block that replaced its ``admit.``."""
    edits = _edits(original, filled)
    if isinstance(edits, str):
        return edits
    bodies: list[str] = []
    pos = prev = 0
    for start, end, kind, h in edits:
        piece = original[prev:start]
        if output[pos : pos + len(piece)] != piece:
            return f"the text before {h.label}'s body changed"
        pos += len(piece)
        want = "Defined." if h.is_definition else "Qed."
        if kind == "end":
            if output[pos : pos + len(want)] != want:
                return f"{h.label}'s proof does not end with {want}"
            pos += len(want)
        elif kind == "block":
            close = _block_end(output, pos)
            if close is None:
                return f"{h.label}: admit. is not replaced by one {{ ... }} block"
            bodies.append(output[pos:close])
            pos = close
        else:
            masked = mask(output[pos:], "rocq")
            stop = next((s for s in rocq_sentences(masked) if _TERMINATOR.match(masked[s.start : s.end])), None)
            if stop is None or masked[stop.start : stop.end].strip() != want:
                return f"{h.label}'s body does not end with {want}"
            bodies.append(output[pos : pos + stop.start])
            pos += stop.end
        prev = end
    if output[pos:] != original[prev:]:
        return "the text after the last filled body changed"
    return bodies


def _edits(original: str, filled: Sequence[Hole]) -> list[tuple[int, int, str, Hole]] | str:
    """The spans of ``original`` a fill replaces, in file order: ``body`` (an ``admitted`` hole's
    script and terminator), ``block`` (an ``admit.``), ``end`` (the ``Admitted.`` of a proof whose
    ``admit.``s are all filled). Every ``admit.`` of a proof is filled, or none."""
    edits: list[tuple[int, int, str, Hole]] = []
    labels = {h.label for h in filled}
    every = find_holes(original)
    for h in filled:
        if h.kind == "admitted":
            edits.append((h.script_start, h.end_end, "body", h))
            continue
        edits.append((h.end_start, h.end_end, "block", h))
        same = [x for x in every if x.kind == "admit" and x.qualified == h.qualified]
        missing = [x.label for x in same if x.label not in labels]
        if missing:
            return f"{h.label} is filled but not {', '.join(missing)} of the same proof"
        if h.admitted_lemma and h.index == len(same) - 1:
            edits.append((h.term_start, h.term_end, "end", h))
    return sorted(edits, key=lambda e: e[0])


def _block_end(output: str, pos: int) -> int | None:
    """The end of the ``{ ... }`` block that starts at ``pos`` (braces counted outside comments
    and strings), or None when no block starts there."""
    masked = mask(output[pos:], "rocq")
    if not masked.startswith("{"):
        return None
    depth = 0
    for i, ch in enumerate(masked):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth == 0:
            return pos + i + 1
    return None


def screen_bodies(bodies: Sequence[str], filled: Sequence[Hole]) -> dict[str, str]:
    """Label -> the first screen finding, for each body that is not tactics only. The block of
    an ``admit`` hole is screened without its braces and must not end its proof inside."""
    from lean_tools.soundness.rocq_screens import screen_rocq

    bad: dict[str, str] = {}
    for h, text in zip(filled, bodies):
        body = text.strip().removeprefix("{").removesuffix("}") if h.kind == "admit" else text
        if h.kind == "admit":
            masked = mask(body, "rocq")
            ends = [masked[s.start : s.end] for s in rocq_sentences(masked) if _TERMINATOR.match(masked[s.start : s.end])]
            if ends:
                bad[h.label] = f"the block ends its proof: {' '.join(ends[0].split())}"
                continue
        findings = screen_rocq(body, role="proof")
        if findings:
            bad[h.label] = f"[{findings[0].rule}] {findings[0].one_line()}"
    return bad


def project_axioms(project_root: str | None, text: str) -> frozenset[str]:
    """Short names of the axioms the unmodified project declares (its ``.v`` files and ``text``)."""
    from lean_tools.soundness.axioms import rocq_declared_parameters

    texts = [text]
    if project_root:
        for p in sorted(Path(project_root).rglob("*.v")):
            if "_build" in p.parts:
                continue
            try:
                texts.append(p.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError):
                continue
    names: set[str] = set()
    for t in texts:
        masked = mask(t, "rocq")
        sents = [" ".join(masked[s.start : s.end].split()) for s in rocq_sentences(masked)]
        axioms = [s for s in sents if re.match(r"(?:(?:Local|Global)\s+)?(?:Axioms?|Parameters?|Conjectures?)\b", s)]
        names |= rocq_declared_parameters(axioms)
    return frozenset(names)


def assumptions_query(names: Sequence[str]) -> str:
    """The query file: ``Print Assumptions`` of each name, each introduced by a marker line."""
    lines = ["Require Import Top.Candidate."]
    for n in names:
        lines.append(f'Goal True. idtac "{_MARK} {n}". Abort.')
        lines.append(f"Print Assumptions Top.Candidate.{n}.")
    return "\n".join(lines) + "\n"


def read_assumptions(output: str) -> dict[str, tuple[str, ...] | None]:
    """Name -> its printed assumptions (short names), None where the answer could not be read."""
    from lean_tools.soundness.axioms import entry_name, parse_print_assumptions

    out: dict[str, tuple[str, ...] | None] = {}
    for chunk in output.split(_MARK + " ")[1:]:
        name, _, rest = chunk.partition("\n")
        report = parse_print_assumptions(rest)
        out[name.strip()] = None if report is None else tuple(entry_name(e) or e for e in report.entries)
    return out


def classify(entries: Sequence[str], project: frozenset[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the project's own axioms used, the other non-whitelisted assumptions) of one lemma."""
    from lean_tools.soundness.axioms import rocq_axiom_allowed

    own: list[str] = []
    other: list[str] = []
    for e in entries:
        name = e.removeprefix("Top.Candidate.")
        if rocq_axiom_allowed(name, "Top.Candidate", frozenset()):
            continue
        (own if name.split(".")[-1] in project else other).append(name)
    return tuple(own), tuple(other)


def allowed_require(line: str) -> bool:
    """Whether an added line loads only libraries the search loads itself (``From Coq Require
    Import`` some of ``Lia Lra Psatz``; ``From Hammer Require Import Tactics``): nothing else may
    be added to a file outside the proof bodies."""
    from lean_tools.assistant import assistant
    from lean_tools.soundness.rocq_screens import HAMMER_TACTICS_IMPORT

    own: dict[str, set[str]] = {}
    for sentence in (assistant("rocq").search_imports, HAMMER_TACTICS_IMPORT):
        m = _IMPORT.fullmatch(sentence)
        if m:
            own.setdefault(m.group(1), set()).update(m.group(2).split())
    m = _IMPORT.fullmatch(" ".join(line.split()))
    return m is not None and bool(m.group(2).split()) and set(m.group(2).split()) <= own.get(m.group(1), set())


_IMPORT = re.compile(r"From (\S+) Require Import ([\w ]+)\.")


class InContextVerdict(Record):
    """The verdict on a filled file: the holes re-judged, the text to write, one summary line."""

    holes: tuple[HoleResult, ...]
    text: str
    """The filled file, or the original when the filled one was rejected."""
    summary: str
    allowed_axioms: tuple[str, ...] = ()
    requires_added: tuple[str, ...] = ()
    """The ``Require`` lines the filled file adds (empty when it was rejected)."""


def judge(
    original: str, output: str, results: list[HoleResult], project_root: str | None, requires_added: Sequence[str] = ()
) -> InContextVerdict:
    """Each hole ``results`` calls proved, re-judged in ``output`` (module docstring).
    ``requires_added``: lines the fill added at ``requires_point`` of the original (each must be
    ``allowed_require``); they are the only change allowed outside the bodies."""
    proved = {r.name for r in results if r.status == "proved"}
    allowed = project_axioms(project_root, original)

    def verdict(holes: list[HoleResult], text: str, summary: str, added: Sequence[str] = ()) -> InContextVerdict:
        return InContextVerdict(
            holes=tuple(holes), text=text, summary=summary, allowed_axioms=tuple(sorted(allowed)), requires_added=tuple(added)
        )

    base = insert_requires(original, list(requires_added), requires_point(original))
    filled = [h for h in find_holes(base) if h.label in proved]
    if not filled:
        return verdict(results, original, "nothing filled")
    foreign = [line for line in requires_added if not allowed_require(line)]
    failure = f"the added line {foreign[0]!r} loads a library the search does not" if foreign else None
    failure = failure or _static_failure(base, output, filled)
    if failure is None:
        checked = _kernel(output, filled, allowed)
        failure = checked if isinstance(checked, str) else None
        if failure is None and requires_added:
            failure = statement_failure(original, base, [h.qualified for h in filled])
        if not isinstance(checked, str) and failure is None:
            return verdict(_apply(results, checked), output, f"{len(filled)} filled; the file compiles in context", requires_added)
    why = {"status": "not_proved", "reason": f"rejected in context: {failure}"}
    rejected = [r.model_copy(update=why) if r.name in proved else r for r in results]
    return verdict(rejected, original, f"rejected: {failure}")


def _static_failure(original: str, output: str, filled: list[Hole]) -> str | None:
    bodies = split_bodies(original, output, filled)
    if isinstance(bodies, str):
        return bodies
    bad = screen_bodies(bodies, filled)
    return "; ".join(f"{k}: {v}" for k, v in bad.items()) or None


def _kernel(output: str, filled: list[Hole], axioms: frozenset[str]) -> dict[str, tuple[str, ...]] | str:
    """Label -> the admitted lemmas its proof rests on, or why the file was rejected."""
    from lean_tools.rocq.checker import compile_and_query

    names = list(dict.fromkeys(h.qualified for h in filled))
    runs = compile_and_query({"Candidate.v": output, "Query.v": assumptions_query(names)}, ["Candidate.v", "Query.v"], timeout=600)
    if not runs or runs[0].returncode != 0 or runs[0].timed_out:
        tail = (runs[0].stdout + runs[0].stderr).strip()[-600:] if runs else "coqc did not run"
        return f"the filled file does not compile: {tail}"
    if len(runs) < 2 or runs[1].returncode != 0:
        return "Print Assumptions failed: " + ((runs[1].stdout + runs[1].stderr).strip()[-400:] if len(runs) > 1 else "")
    printed = read_assumptions(runs[1].stdout)
    out: dict[str, tuple[str, ...]] = {}
    for h in filled:
        entries = printed.get(h.qualified)
        if entries is None:
            return f"could not read Print Assumptions of {h.qualified}"
        out[h.label] = classify(entries, axioms)[1]
    return out


def _apply(results: list[HoleResult], assumes: dict[str, tuple[str, ...]]) -> list[HoleResult]:
    return [r.model_copy(update={"status": "proved_assuming", "assumes": assumes[r.name]}) if assumes.get(r.name) else r for r in results]
