"""Axiom whitelists and the parsing of ``Print Assumptions`` / ``#print axioms`` answers.

Lean: ``propext``, ``Classical.choice``, ``Quot.sound`` (everything else, ``sorryAx``,
``Lean.ofReduceBool``, ``Lean.trustCompiler``, native_decide's auxiliary axioms, user
axioms, is rejected).

Rocq (8.16.1, Debian packages; measured with ``Print Assumptions`` on lia/lra/nra/field,
sqrt/ln/exp/sin lemmas, Coquelicot limits, ``dependent destruction``, Classical,
ClassicalEpsilon, PropExtensionality, ProofIrrelevance, MathComp/analysis ``boolp`` and the
``interval`` tactic; names confirmed with ``Locate``):

- ``Coq.Reals.ClassicalDedekindReals.sig_forall_dec`` and ``.sig_not_dec`` (the reals' axioms;
  lra/nra/field over R and most real lemmas),
- ``Coq.Logic.FunctionalExtensionality.functional_extensionality_dep`` (also used by the reals),
- ``Coq.Logic.Classical_Prop.classic``,
- ``Coq.Logic.ClassicalEpsilon.constructive_indefinite_description``,
- ``Coq.Logic.PropExtensionality.propositional_extensionality`` (ProofIrrelevance builds on it),
- ``Coq.Logic.Eqdep.Eq_rect_eq.eq_rect_eq`` (``dependent destruction``),
- ``mathcomp.classical.boolp.{propositional_extensionality, functional_extensionality_dep,
  constructive_indefinite_description}`` (MathComp-analysis),
- the primitive integers/floats and their specification axioms, used by ``interval`` and
  ``vm_compute`` reflection: every constant of ``Coq.Numbers.Cyclic.Int63.PrimInt63``,
  ``Coq.Floats.PrimFloat``, ``Coq.Numbers.Cyclic.Int63.Uint63`` (``*_spec``, ``of_to_Z``,
  ``eqb_correct``, ...), ``Coq.Floats.FloatAxioms``.
Not whitelisted (not observed): ``JMeq.JMeq_eq``, ``ClassicalChoice``-style choice axioms
other than the above, anything from GeoCoq/Coqtail; they are rejected until measured.

Printed names are partially qualified (``ClassicalDedekindReals.sig_forall_dec``) because the
query process only ``Require``s the candidate. A name is whitelisted when it is a dotted
suffix, with at least its module component, of a whitelisted full path. Constants of the
candidate print as ``Candidate.x``; the only ones allowed are the parameters the PROBLEM text
declares (``Variable R : realType.`` and the like), which the candidate must keep verbatim.
Any other line (``Candidate.f is assumed to be guarded.``, ``... is assumed to be positive.``,
``relies on definitional UIP``) is rejected.
"""

from __future__ import annotations

import re

from ..types import Record

LEAN_AXIOMS = frozenset({"propext", "Classical.choice", "Quot.sound"})

ROCQ_AXIOMS = frozenset(
    {
        "Coq.Reals.ClassicalDedekindReals.sig_forall_dec",
        "Coq.Reals.ClassicalDedekindReals.sig_not_dec",
        "Coq.Logic.FunctionalExtensionality.functional_extensionality_dep",
        "Coq.Logic.Classical_Prop.classic",
        "Coq.Logic.ClassicalEpsilon.constructive_indefinite_description",
        "Coq.Logic.PropExtensionality.propositional_extensionality",
        "Coq.Logic.Eqdep.Eq_rect_eq.eq_rect_eq",
        "mathcomp.classical.boolp.propositional_extensionality",
        "mathcomp.classical.boolp.functional_extensionality_dep",
        "mathcomp.classical.boolp.constructive_indefinite_description",
    }
)
ROCQ_PRIMITIVE_MODULES = frozenset(
    {
        "Coq.Numbers.Cyclic.Int63.PrimInt63",
        "Coq.Floats.PrimFloat",
        "Coq.Numbers.Cyclic.Int63.Uint63",
        "Coq.Floats.FloatAxioms",
    }
)


class AssumptionReport(Record):
    """Parsed ``Print Assumptions``: ``closed`` or a list of entries (first line of each)."""

    closed: bool
    entries: tuple[str, ...] = ()


def parse_print_assumptions(output: str) -> AssumptionReport | None:
    """Parse coqc's answer; None when it is neither ``Closed under...`` nor ``Axioms:``-style."""
    text = output.strip()
    if not text:
        return None
    if text.startswith("Closed under the global context"):
        return AssumptionReport(closed=True)
    entries: list[str] = []
    lines = text.splitlines()
    if not re.match(r"^[A-Z][\w ]*:$", lines[0]):
        return None
    for line in lines:
        if not line.strip() or line[0].isspace():
            continue  # continuation of a wrapped type
        if re.match(r"^[A-Z][\w ]*:$", line):
            continue  # section header: "Axioms:", "Opaque constants:" ...
        entries.append(line.rstrip())
    return AssumptionReport(closed=False, entries=tuple(entries))


def entry_name(entry: str) -> str | None:
    m = re.match(r"^(?P<name>[^\s:]+)(?:\s*:.*)?$", entry)
    return m.group("name") if m else None


def _is_suffix(short: str, full: str) -> bool:
    return "." in short and (full == short or full.endswith("." + short))


def rocq_axiom_allowed(name: str, module: str, problem_params: frozenset[str]) -> bool:
    """Whether a printed assumption name is acceptable (see the module docstring)."""
    if any(_is_suffix(name, full) for full in ROCQ_AXIOMS):
        return True
    mod, _, _leaf = name.rpartition(".")
    primitive = any(full == mod or full.endswith("." + mod) for full in ROCQ_PRIMITIVE_MODULES)
    if mod and mod.split(".")[0] not in (module, "Top") and primitive:
        return True
    return name.startswith(module + ".") and name[len(module) + 1 :] in problem_params


def rocq_unexpected(report: AssumptionReport, module: str, problem_params: frozenset[str]) -> tuple[str, ...]:
    """Entries that are not whitelisted axioms (whole lines, so guard/positivity notes show)."""
    bad = []
    for e in report.entries:
        name = entry_name(e)
        if name is None or not rocq_axiom_allowed(name, module, problem_params):
            bad.append(e)
    return tuple(bad)


_ROCQ_PARAM_HEADS = re.compile(
    r"^(?:(?:Local|Global)\s+)?(?:Variables?|Parameters?|Hypothes[ie]s|Axioms?|Conjectures?|Context)\s+(?P<rest>.*)$",
    re.DOTALL,
)


def rocq_declared_parameters(sentences: list[str]) -> frozenset[str]:
    """Names declared by Variable/Parameter/Hypothesis/Axiom/Context sentences (problem text)."""
    names: set[str] = set()
    for s in sentences:
        m = _ROCQ_PARAM_HEADS.match(s.strip())
        if not m:
            continue
        rest = m.group("rest")
        groups = re.findall(r"[({\[]\s*([\w'\s]+?)\s*:", rest)
        if not groups:
            groups = [rest.split(":", 1)[0]]
        for g in groups:
            names.update(w for w in g.split() if re.fullmatch(r"[\w']+", w))
    return frozenset(names)
