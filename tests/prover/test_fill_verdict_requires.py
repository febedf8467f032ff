"""The verdict in context when the fill added a ``Require``: each filled lemma's statement, as
Rocq elaborates it, must be the one it was in the original (``prover.fill_verdict``)."""

from __future__ import annotations

import pytest

from lean_tools.rocq.holes import fill, find_holes, insert_requires, requires_point
from prover.fill_verdict import changed_statements, judge, read_statements, statements_query
from prover.records import HoleResult

LIA = "From Coq Require Import Lia."


def _printed(types: dict[str, str]) -> str:
    """What ``coqc`` prints for ``statements_query`` when each name has the given type."""
    out = []
    for name, typ in types.items():
        out.append(f"PROVER-STATEMENT-OF {name}\n{name.split('.')[-1]}\n     : {typ}\n")
    return "".join(out)


def test_the_query_prints_each_statement_in_full_after_a_marker():
    query = statements_query(["l", "M.k"])
    assert query.startswith("Require Import Top.Candidate.\nSet Printing All.\n")
    assert 'idtac "PROVER-STATEMENT-OF M.k"' in query and "Check @Top.Candidate.M.k." in query


def test_statements_are_compared_name_by_name():
    before = read_statements(_printed({"l": "@eq nat (f (S O)) O", "M.k": "forall n : nat,\n       @eq nat n n"}))
    assert before == {"l": "l : @eq nat (f (S O)) O", "M.k": "k : forall n : nat, @eq nat n n"}
    same = read_statements(_printed({"l": "@eq nat (f (S O)) O", "M.k": "forall n : nat, @eq nat n n"}))
    assert changed_statements(before, same, ["l", "M.k"]) is None
    other = read_statements(_printed({"l": "@eq nat (g (S O)) O", "M.k": "forall n : nat, @eq nat n n"}))
    why = changed_statements(before, other, ["l", "M.k"])
    assert why is not None and why.startswith("the added Require changed the statement of l:") and "(g (S O))" in why
    assert changed_statements(before, {"l": before["l"]}, ["l", "M.k"]) == "could not read the statement of M.k"


# --- real Rocq ----------------------------------------------------------------------------------

# Loading Lia loads PeanoNat, which drops the argument scope of Nat.of_uint: the numeral is then
# read as a nat and reaches another coercion, so the same text states 6 = 6 instead of 5 = 6.
SCOPE_CHANGE = """\
Require Import Bool.
Definition bump (n : nat) : Decimal.uint := Nat.to_uint (S n).
Coercion bump : nat >-> Decimal.uint.
Definition digits (u : Number.uint) : Decimal.uint :=
  match u with Number.UIntDecimal d => d | Number.UIntHexadecimal _ => Decimal.Nil end.
Coercion digits : Number.uint >-> Decimal.uint.
Lemma changed : Nat.of_uint 5 = 6.
Proof.
Admitted.
"""

SECTION = """\
Require Import Arith.
Section S.
Variable n : nat.
Hypothesis H : 2 <= n.
Lemma grows : n * 2 + 1 <= 3 * n + 1.
Proof.
Admitted.
End S.
"""


def _judged(original: str, script: str, requires: tuple[str, ...]):
    (hole,) = find_holes(original)
    base = insert_requires(original, list(requires), requires_point(original))
    output = fill(base, find_holes(base)[0], script)
    results = [HoleResult(name=hole.label, kind=hole.kind, status="proved", proof=script)]
    return judge(original, output, results, None, requires)


@pytest.mark.rocq
def test_a_require_that_changes_the_statement_is_rejected():
    report = _judged(SCOPE_CHANGE, "reflexivity.", (LIA,))
    (hole,) = report.holes
    assert hole.status == "not_proved"
    assert "the added Require changed the statement of changed" in hole.reason, hole.reason
    assert report.text == SCOPE_CHANGE and report.requires_added == ()


@pytest.mark.rocq
def test_an_honest_fill_with_an_added_require_in_a_section_is_accepted():
    # the proof does not use H: after End S the filled lemma is not generalised over H, the
    # admitted one is; both statements are read with the hole admitted, so they agree
    report = _judged(SECTION, "lia.", (LIA,))
    (hole,) = report.holes
    assert hole.status == "proved", hole.reason
    assert report.requires_added == (LIA,) and "Arith.\nFrom Coq Require Import Lia.\nSection S." in report.text


@pytest.mark.rocq
def test_an_original_that_does_not_compile_is_not_compared_but_rejected():
    uses_lia = SECTION.replace("End S.\n", "End S.\nLemma early (m : nat) : m <= m + 1.\nProof. lia. Qed.\n")
    report = _judged(uses_lia, "lia.", (LIA,))
    (hole,) = report.holes
    assert hole.status == "not_proved" and "the statements of the original file cannot be compared, it does not compile" in hole.reason
    assert report.text == uses_lia
