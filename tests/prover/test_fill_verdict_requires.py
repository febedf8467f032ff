"""The verdict in context when the fill added a ``Require``: each filled lemma's statement, as
Rocq elaborates it, must be the one it was in the original, and so must the definitions it names
(``prover.fill_statements``, called by ``prover.fill_verdict.judge``)."""

from __future__ import annotations

import pytest

from lean_tools.rocq.holes import fill, find_holes, insert_requires, requires_point
from prover.fill_statements import admitted_proofs, changed_statements, file_definitions, read_statements, statements_query
from prover.fill_verdict import judge
from prover.records import HoleResult

LIA = "From Coq Require Import Lia."


def _printed(types: dict[str, str]) -> str:
    """What ``coqc`` prints for ``statements_query`` when each name has the given type."""
    out = []
    for name, typ in types.items():
        out.append(f"PROVER-STATEMENT-OF {name}\n{name.split('.')[-1]}\n     : {typ}\n")
    return "".join(out)


def test_the_query_prints_each_statement_in_full_after_a_marker():
    query = statements_query(["l", "M.k"], ["d"])
    assert query.startswith("Require Import Top.Candidate.\nSet Printing All.\n")
    assert 'idtac "PROVER-STATEMENT-OF M.k"' in query and "Check @Top.Candidate.M.k." in query
    # the lemmas come first: a definition the file does not make stops the query after them
    assert query.index("Check @Top.Candidate.M.k.") < query.index('idtac "PROVER-STATEMENT-OF d"') < query.index("Print Top.Candidate.d.")


def test_statements_are_compared_name_by_name():
    before = read_statements(_printed({"l": "@eq nat (f (S O)) O", "M.k": "forall n : nat,\n       @eq nat n n"}))
    assert before == {"l": "l : @eq nat (f (S O)) O", "M.k": "k : forall n : nat, @eq nat n n"}
    same = read_statements(_printed({"l": "@eq nat (f (S O)) O", "M.k": "forall n : nat, @eq nat n n"}))
    assert changed_statements(before, same, ["l", "M.k"]) is None
    other = read_statements(_printed({"l": "@eq nat (g (S O)) O", "M.k": "forall n : nat, @eq nat n n"}))
    why = changed_statements(before, other, ["l", "M.k"])
    assert why is not None and why.startswith("the added Require changed the statement of l:") and "(g (S O))" in why
    assert changed_statements(before, {"l": before["l"]}, ["l", "M.k"]) == "could not read the statement of M.k"


def test_a_definition_the_statement_names_is_compared_through_other_definitions():
    before = {"l": "l : @eq nat (M.f O) O", "M.f": "M.f = fun n : nat => g n", "g": "g = fun n : nat => n", "h": "h = O"}
    after = before | {"h": "h = S O"}
    assert changed_statements(before, after, ["l"], ["M.f", "g", "h"]) is None  # h is not named
    after = before | {"g": "g = fun n : nat => S n"}
    why = changed_statements(before, after, ["l"], ["M.f", "g", "h"])
    assert why is not None and why.startswith("the added Require changed the definition of g, which the statement of l names")
    assert changed_statements(before, after, ["l"], ["M.f"]) is None  # g is not a definition of the file


def test_the_files_definitions_with_a_body_are_listed_by_qualified_name():
    text = (
        "Definition a := 1.\nModule M.\nSection S.\nVariable x : nat.\nFixpoint b (n : nat) : nat := n.\n"
        "Lemma c : True.\nProof. exact I. Qed.\nDefinition d : nat.\nexact 0.\nDefined.\nEnd S.\n"
        "Inductive t := K.\n#[local] Instance i : Inhabited t := {| inhabitant := K |}.\nEnd M.\n"
        "Module F (X : Nat).\nDefinition e := 0.\nEnd F.\nModule Type T.\nDefinition f := 0.\nEnd T.\n"
        "Module S : T.\nDefinition f := 0.\nDefinition g := 0.\nEnd S.\nModule Import U <: T.\nDefinition f := 0.\nEnd U.\n"
    )
    assert file_definitions(text) == ["a", "M.b", "M.t", "M.i", "U.f"]


def test_only_the_terminators_of_proofs_with_admit_holes_become_admitted():
    text = (
        "Lemma a : True /\\ True.\nProof. split.\n- admit.\n- { admit. } Qed.\n"
        "Definition d : nat.\nProof. admit. (* Qed. *) Defined.\n"
        "Lemma b : True.\nProof. exact I. Qed.\nLemma c : True.\nProof. admit.\nAdmitted.\n"
    )
    expected = text.replace("{ admit. } Qed.", "{ admit. } Admitted.").replace("(* Qed. *) Defined.", "(* Qed. *) Admitted.")
    assert admitted_proofs(text) == expected
    assert [h.label for h in find_holes(admitted_proofs(text))] == [h.label for h in find_holes(text)]


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

HIDDEN = SCOPE_CHANGE.replace("Lemma changed : Nat.of_uint 5 = 6.", "Definition five := Nat.of_uint 5.\nLemma changed : five = 6.")

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
def test_a_require_that_changes_a_definition_the_statement_names_is_rejected():
    report = _judged(HIDDEN, "reflexivity.", (LIA,))
    (hole,) = report.holes
    assert hole.status == "not_proved"
    assert "the added Require changed the definition of five, which the statement of changed names" in hole.reason, hole.reason
    assert report.text == HIDDEN


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


# An ``admit.`` inside a proof ending in ``Qed.``: Rocq 8.16 refuses to compile the file as written.
ADMIT_IN_QED = "Require Import Arith.\nLemma a : forall n, n + 0 = n.\nProof. intros n. admit. Qed.\n"


@pytest.mark.rocq
def test_an_honest_fill_of_an_admit_in_a_qed_proof_with_an_added_require_is_accepted():
    report = _judged(ADMIT_IN_QED, "lia.", (LIA,))
    (hole,) = report.holes
    assert hole.status == "proved", hole.reason
    assert report.requires_added == (LIA,)
    filled = ADMIT_IN_QED.replace("Arith.\n", "Arith.\nFrom Coq Require Import Lia.\n").replace("admit.", "{ lia. }")
    assert report.text == filled


@pytest.mark.rocq
def test_a_require_that_changes_the_statement_of_an_admit_in_a_qed_proof_is_rejected():
    original = SCOPE_CHANGE.replace("Proof.\nAdmitted.\n", "Proof.\nadmit.\nQed.\n")
    assert find_holes(original)[0].kind == "admit"
    report = _judged(original, "reflexivity.", (LIA,))
    (hole,) = report.holes
    assert hole.status == "not_proved"
    assert "the added Require changed the statement of changed" in hole.reason, hole.reason
    assert report.text == original and report.requires_added == ()


def test_definitions_and_names_follow_rocqs_identifier_rule():
    assert file_definitions("Definition α := 1.\nModule Mβ.\nDefinition f' := α.\nEnd Mβ.\n") == ["α", "Mβ.f'"]
    before = {"l": "@eq nat Mβ.f' 1", "Mβ.f'": "Mβ.f' = 1 : nat"}
    after = {"l": "@eq nat Mβ.f' 1", "Mβ.f'": "Mβ.f' = 2 : nat"}
    assert "definition of Mβ.f'" in (changed_statements(before, after, ["l"], ["Mβ.f'"]) or "")
