"""Whether the ``Require`` lines a fill added leave the filled lemmas' statements as written.

The same text can elaborate to another statement once a library is loaded: loading ``Lia`` loads
``PeanoNat``, which drops the argument scope of ``Nat.of_uint``, so a numeral there is read as a
``nat`` and may reach another coercion. The textual check of the verdict cannot see that, so
``statement_failure`` compiles the original file (holes admitted) and the original with the added
lines (holes still admitted), each in a fresh sandboxed ``coqc`` with the project's flags, and
prints at the end of each, in a separate query step on the compiled module:
- each filled lemma's type (``Check``);
- each definition the file gives a body with ``:=`` (``Print``: its body and type).
Both with ``Set Printing All``, so no notation, coercion or implicit argument hides a difference.
The filled lemma's type must be the same in both, and so must each definition its printed type
names, and each definition those name in turn. Both files have the holes admitted, so a section
generalises a lemma over the same variables in both: a filled lemma would be generalised only
over the variables its proof uses, an admitted one over all of them. A proof with ``admit.``
holes that ends in ``Qed.``/``Defined.`` (which Rocq 8.16 refuses to compile) ends in
``Admitted.`` in both files (``admitted_proofs``): only those terminators change, never a
statement, so the statements compared are still the ones written.

Cost: two ``coqc`` runs of the file with its holes admitted, only when lines were added.

Not covered: a definition made in proof mode (``Defined``), named by a statement, is not
compared (its body comes from tactics), nor one inside a functor, a module type or a sealed
module; names are matched as printed, so a definition printed with a longer qualification than
its declared one (a later name shadows it) is not followed; if ``Print`` fails on a name the
walk took for a definition, the definitions after it are not compared (the lemmas come first).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from lean_tools.rocq.walk import IDENT, qualified, walk

_MARK = "PROVER-STATEMENT-OF"
_DEFINITION = re.compile(
    r"(?:#\[[^\]]*\]\s*)*(?:(?:Local|Global|Polymorphic|Monomorphic|Program)\s+)*"
    r"(?:Definition|Example|Fixpoint|CoFixpoint|Inductive|CoInductive|Variant|Record|Structure|Class|Instance)"
    rf"\s+({IDENT})"
)
_SEALED = re.compile(r"Module\s+(?:(?:Import|Export)\s+)?[\w']+\s*:[^=]")
_NAME = re.compile(rf"{IDENT}(?:\.{IDENT})*")


def file_definitions(text: str) -> list[str]:
    """The qualified names of the definitions ``text`` gives a body with ``:=`` (definitions,
    fixpoints, inductive types, records, classes, named instances), in file order; none inside a
    functor, a module type or a module sealed by a type (``Module M : T.``), whose names are
    hidden after ``End``."""
    names: list[str] = []
    hidden: set[int] = set()
    for step in walk(text):
        if step.change == "open" and _SEALED.match(step.head):
            hidden.add(step.ids[-1])
        m = _DEFINITION.match(step.head)
        if m is None or ":=" not in step.head or hidden.intersection(step.ids):
            continue
        if all(s.kind in ("section", "module") for s in step.scopes):
            names.append(qualified(step.scopes, m.group(1)))
    return list(dict.fromkeys(names))


def statements_query(lemmas: Sequence[str], definitions: Sequence[str] = ()) -> str:
    """The query file: ``Check`` of each lemma, then ``Print`` of each definition, with ``Set
    Printing All``, each introduced by a marker line. The names are those of ``Top.Candidate``."""
    lines = ["Require Import Top.Candidate.", "Set Printing All."]
    for command, names in (("Check @", lemmas), ("Print ", definitions)):
        for n in names:
            lines.append(f'Goal True. idtac "{_MARK} {n}". Abort.')
            lines.append(f"{command}Top.Candidate.{n}.")
    return "\n".join(lines) + "\n"


def read_statements(output: str) -> dict[str, str]:
    """Name -> what was printed for it, whitespace collapsed (the output of ``statements_query``)."""
    out: dict[str, str] = {}
    for chunk in output.split(_MARK + " ")[1:]:
        name, _, rest = chunk.partition("\n")
        out[name.strip()] = " ".join(rest.split())
    return out


def changed_statements(before: dict[str, str], after: dict[str, str], lemmas: Sequence[str], definitions: Sequence[str] = ()) -> str | None:
    """Why two ``read_statements`` answers (the original's, the one with the added lines) differ
    for ``lemmas``, or for a definition of ``definitions`` a lemma's type names (directly or
    through other definitions); None when each lemma was read and nothing differs. A definition
    not read in both is passed over."""
    for n in lemmas:
        if n not in before or n not in after:
            return f"could not read the statement of {n}"
    changed = [n for n in lemmas if before[n] != after[n]]
    if changed:
        n = changed[0]
        return (
            f"the added Require changed the statement of {', '.join(changed)}: "
            f"{before[n][:300]!r} in the original, {after[n][:300]!r} with the added lines"
        )
    known = frozenset(definitions)
    for n in lemmas:
        seen: set[str] = set()
        todo = [before[n]]
        while todo:
            for d in _NAME.findall(todo.pop()):
                if d not in known or d in seen or d not in before or d not in after:
                    continue
                seen.add(d)
                if before[d] != after[d]:
                    return (
                        f"the added Require changed the definition of {d}, which the statement of {n} names: "
                        f"{before[d][:300]!r} in the original, {after[d][:300]!r} with the added lines"
                    )
                todo.append(before[d])
    return None


def _printed(text: str, lemmas: Sequence[str], definitions: Sequence[str]) -> dict[str, str] | str:
    """What the query prints for each name at the end of ``text`` (compiled as ``Top.Candidate``
    in a fresh sandboxed ``coqc``), or why ``text`` does not compile. A query that stops at an
    error (a name the file does not make) keeps what it printed before."""
    from lean_tools.rocq.checker import compile_and_query

    files = {"Candidate.v": text, "Query.v": statements_query(lemmas, definitions)}
    runs = compile_and_query(files, ["Candidate.v", "Query.v"], timeout=600)
    if not runs:
        return "coqc did not run"
    if runs[0].returncode != 0 or runs[0].timed_out:
        return "it does not compile: " + (runs[0].stdout + runs[0].stderr).strip()[-400:]
    return read_statements(runs[1].stdout) if len(runs) > 1 else {}


def admitted_proofs(text: str) -> str:
    """``text`` with each proof that has ``admit`` holes (``find_holes``) and ends in ``Qed.``/
    ``Defined.`` ending in ``Admitted.`` instead; every other byte as it was (an ``Admitted.``
    proof with ``admit.``s is left alone, and so is each ``admit.``)."""
    from lean_tools.rocq.holes import find_holes

    spans = {(h.term_start, h.term_end) for h in find_holes(text) if h.kind == "admit" and not h.admitted_lemma}
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + "Admitted." + text[end:]
    return text


def statement_failure(original: str, base: str, lemmas: Sequence[str]) -> str | None:
    """Why the lines added in ``base`` (the original with them, holes still admitted) change the
    statement of one of ``lemmas`` (qualified names) or a definition it names; None when they do
    not (module docstring). Both are compiled with ``admitted_proofs``. An original that does not
    compile is a failure."""
    lemmas = list(dict.fromkeys(lemmas))
    definitions = file_definitions(original)
    before = _printed(admitted_proofs(original), lemmas, definitions)
    if isinstance(before, str):
        return f"the statements of the original file cannot be compared, {before}"
    after = _printed(admitted_proofs(base), lemmas, definitions)
    if isinstance(after, str):
        return f"the statements of the original with the added lines cannot be compared, {after}"
    return changed_statements(before, after, lemmas, definitions)
