"""lean_helpers.structure through screen_lean(role="helpers"): each allowed construct and its limit."""

from __future__ import annotations

import pytest

from lean_tools.soundness import screen_lean

LEMMA = "lemma aux (a : ℕ) : a + 0 = a := by simp\n"


def rules(text: str) -> set[str]:
    return {f.rule for f in screen_lean(text, role="helpers")}


@pytest.mark.parametrize(
    "text",
    [
        "open Finset in\n" + LEMMA,
        "open Finset Real in " + LEMMA,
        "open scoped BigOperators in\nset_option maxHeartbeats 400000 in\n" + LEMMA,
        "set_option linter.unusedVariables false\n" + LEMMA,
        "section\nvariable {n : ℕ}\nopen Finset\n" + LEMMA + "end\n",
        "namespace Foo\nsection Bar\nuniverse u\n" + LEMMA + "end Bar\nend Foo\n",
        "noncomputable section\n" + LEMMA + "end\n",
        "section\nattribute [local instance] Classical.propDecidable\n" + LEMMA + "end\n",
        LEMMA + "attribute [simp] aux\n#check aux\n#print axioms aux\n",
        "@[simp, norm_cast] " + LEMMA,
        "snip begin\n" + LEMMA + "snip end\n",
        "lemma col0 : True := by\ntrivial\n",
        "lemma term0 (c : ℕ) : c ≤ c :=\nle_refl c\n",
        # Lean's module system: visibility only.
        "@[expose] public section\n" + LEMMA + "end\n",
        "public noncomputable section\n" + LEMMA + "end\n",
        "@[expose] section\n" + LEMMA + "end\n",
        "public " + LEMMA + "@[expose] public def d : ℕ := 1\n",
        "section\nvariable {m : ℕ} (hm : 0 < m)\ninclude hm\n" + LEMMA + "omit hm in\n" + LEMMA.replace("aux", "aux2") + "end\n",
    ],
)
def test_allowed(text):
    assert screen_lean(text, role="helpers") == (), screen_lean(text, role="helpers")


@pytest.mark.parametrize(
    ("text", "rule"),
    [
        (LEMMA + "open Finset in\n", "lean.command"),  # dangling: would modify what follows
        ("open Finset in\nsection\n" + LEMMA + "end\n", "lean.command"),
        ("set_option autoImplicit true in\n" + LEMMA, "lean.set_option"),
        ("set_option debug.skipKernelTC true\n" + LEMMA, "lean.set_option"),
        ("variable [Fact False]\n" + LEMMA, "lean.command"),  # top level: reaches the theorem
        ("open Classical\n" + LEMMA, "lean.command"),
        ("section\n" + LEMMA, "lean.command"),  # unclosed
        ("end Foo\n" + LEMMA, "lean.command"),  # closes a scope of the problem's
        ("namespace A\n" + LEMMA + "end B\n", "lean.command"),
        ("attribute [local instance] Classical.propDecidable\n" + LEMMA, "lean.attribute"),
        ("attribute [instance] foo\n" + LEMMA, "lean.attribute"),
        ("@[simp, instance] " + LEMMA, "lean.attribute"),
        ("open Lean in\n" + LEMMA, "lean.meta"),
        ("#eval 1\n" + LEMMA, "lean.command"),
        ("lemma col0 : True := by\nhave h : True := trivial\nmystery_command\nexact h\n", "lean.command"),
        ("@[expose] public section\naxiom boom : False\nend\n", "lean.command"),
        ("public section\n" + LEMMA, "lean.command"),  # unclosed
        ("variable (h : False)\ninclude h\n" + LEMMA, "lean.command"),  # top level
        ("include h\n" + LEMMA, "lean.command"),
        ("@[expose, instance] def d : ℕ := 1\n", "lean.attribute"),
        ("public meta def d : ℕ := 1\n", "lean.command"),
    ],
)
def test_rejected(text, rule):
    assert rule in rules(text), screen_lean(text, role="helpers")


def test_eval_message_names_the_command():
    first = screen_lean("#eval 1\n" + LEMMA, role="helpers")[0]
    assert "`#eval`" in first.message
    msgs = [f.message for f in screen_lean("by\n  simp\n  #print axioms foo")]
    assert any("`#print`" in m for m in msgs) and not any("`axioms`" in m for m in msgs)
