"""lean_tools.lean.holes: the ``sorry`` holes of a Lean file, their scopes, and ``fill``.

No Lean runs here. The positions found statically are compared with the ``sorries`` the real
REPL reported in the recorded traffic of tests/data/lean_repl.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lean_tools.lean import protocol as P
from lean_tools.lean.holes import Scope, closers, fill, find_holes, replacement

DATA = Path(__file__).resolve().parent.parent / "data" / "lean_repl"

FILE = """import Mathlib

/-- A docstring that says sorry. -/
theorem dvd_ex (a b : ℕ) (h : a ∣ b) : a ∣ b * 2 := by
  sorry

namespace Foo.Bar
variable {x : ℝ} (hx : 0 < x)

-- sorry in a comment, "sorry" in a string below
theorem pos : 0 < x := sorry

def msg : String := "sorry"

section S
variable (n : ℕ)
lemma two : n = n ∧ x = x := by
  constructor
  · sorry
  · exact ⟨sorry, rfl⟩.1

example : True ∨ False := by
  cases h with
  | inl h => sorry
  | inr h => exact fun y => sorry
end S

variable (m : ℕ) in
theorem _root_.glob : m = m := by exact sorry

instance : Inhabited ℕ where
  default := sorry

def f : ℕ → ℕ
  | 0 => sorry
  | n + 1 => f n
end Foo.Bar

theorem after : (1 : ℝ) = 1 := sorry
"""


def by_label(text: str):
    return {h.label: h for h in find_holes(text)}


def test_holes_in_file_order_with_names_scopes_and_variables():
    holes = find_holes(FILE)
    assert [h.label for h in holes] == [
        "dvd_ex",
        "Foo.Bar.pos",
        "Foo.Bar.two#sorry1",
        "Foo.Bar.two#sorry2",
        "example@22#sorry1",
        "example@22#sorry2",
        "glob",
        "instance@31",
        "Foo.Bar.f",
        "after",
    ]
    assert all(FILE[h.sorry_start : h.sorry_end] == "sorry" for h in holes)
    assert [h.sorry_start for h in holes] == sorted(h.sorry_start for h in holes)
    h = by_label(FILE)
    ns = (Scope(kind="namespace", name="Foo"), Scope(kind="namespace", name="Bar"))
    assert h["dvd_ex"].scopes == () and h["dvd_ex"].variables == ()
    assert h["Foo.Bar.pos"].scopes == ns and h["Foo.Bar.pos"].variables == ("variable {x : ℝ} (hx : 0 < x)",)
    two = h["Foo.Bar.two#sorry1"]
    assert two.scopes == (*ns, Scope(kind="section", name="S")) and two.name == "two"
    assert two.variables == ("variable {x : ℝ} (hx : 0 < x)", "variable (n : ℕ)")
    # the section's variable is gone after `end S`; `variable ... in` holds for one declaration
    assert h["glob"].variables == ("variable {x : ℝ} (hx : 0 < x)", "variable (m : ℕ)")
    assert h["instance@31"].variables == ("variable {x : ℝ} (hx : 0 < x)",)
    assert h["after"].scopes == () and h["after"].variables == ()
    assert h["instance@31"].name == "" and h["instance@31"].is_definition
    assert h["Foo.Bar.f"].is_definition and not h["Foo.Bar.pos"].is_definition


def test_kinds_and_positions():
    h = by_label(FILE)
    kinds = {k: (v.kind, v.position) for k, v in h.items()}
    assert kinds == {
        "dvd_ex": ("body", "tactic"),
        "Foo.Bar.pos": ("body", "term"),
        "Foo.Bar.two#sorry1": ("sorry", "tactic"),  # after a focusing dot
        "Foo.Bar.two#sorry2": ("sorry", "term"),  # inside an anonymous constructor
        "example@22#sorry1": ("sorry", "tactic"),  # a `cases` alternative
        "example@22#sorry2": ("sorry", "term"),  # the body of a `fun`
        "glob": ("sorry", "term"),  # argument of `exact`
        "instance@31": ("sorry", "term"),  # a field after `where`
        "Foo.Bar.f": ("sorry", "term"),  # an equation's right-hand side
        "after": ("body", "term"),
    }
    assert h["dvd_ex"].body_start == FILE.index("by\n  sorry")


@pytest.mark.parametrize(
    ("body", "position"),
    [
        ("by\n  intro x\n  sorry", "tactic"),
        ("by\n  constructor <;> sorry", "tactic"),
        ("by\n  simp; sorry", "tactic"),
        ("by\n  all_goals sorry", "tactic"),
        ("by\n  have h : 1 = 1 := sorry\n  rfl", "term"),
        ("by\n  have h : 1 = 1 := by sorry\n  rfl", "tactic"),
        ("by\n  have h : 1 = 1 :=\n    sorry\n  rfl", "term"),
        ("by\n  refine ⟨?_, sorry⟩", "term"),
        ("⟨by simp, sorry⟩", "term"),
        ("foo (by simp) sorry", "term"),
        ("by\n  calc 1 = 1 := by rfl\n    _ = 1 := sorry", "term"),
        ("by\n  induction n\n  case zero => sorry\n  case succ => rfl", "tactic"),
    ],
)
def test_position_rules(body: str, position: str):
    text = f"theorem t (n : ℕ) : P := {body}\n"
    (hole,) = find_holes(text)
    assert hole.position == position


def test_comments_strings_and_longer_identifiers_never_start_a_hole():
    text = (
        "theorem a : True := by\n  -- sorry\n  /- sorry -/ trivial\n"
        'def s : String := "sorry"\n'
        "theorem b : True := sorryAx _ |>.elim\n"
        "theorem c (h : P) : True := h.sorry\n"
        "/-- sorry -/\ntheorem d : True := trivial\n"
        "theorem e (sorry' : True) : True := sorry'\n"
    )
    assert find_holes(text) == []


def test_sorry_in_a_statement_is_not_a_body_hole():
    (hole,) = find_holes("theorem t : (sorry : Prop) := by\n  sorry\n")
    assert hole.kind == "body" and hole.line == 2


def test_nested_namespaces_end_as_lean_ends_them():
    text = (
        "namespace A.B\ntheorem x : True := sorry\nend B\ntheorem y : True := sorry\nend A\n"
        "namespace C.D\nnamespace E\ntheorem z : True := sorry\nend E\nend C.D\n"
        "theorem w : True := sorry\n"
    )
    assert [h.qualified for h in find_holes(text)] == ["A.B.x", "A.y", "C.D.E.z", "w"]


def test_sections_anonymous_named_noncomputable_and_mutual():
    text = (
        "noncomputable section\nvariable (a : ℕ)\n"
        "section\nvariable (b : ℕ)\ntheorem x : a = b := sorry\nend\n"
        "theorem y : a = a := sorry\nend\n"
        "mutual\ntheorem m1 : True := sorry\ntheorem m2 : True := sorry\nend\n"
        "theorem z : True := sorry\n"
    )
    h = by_label(text)
    assert h["x"].scopes == (Scope(kind="section"), Scope(kind="section"))
    assert h["x"].variables == ("variable (a : ℕ)", "variable (b : ℕ)")
    assert h["y"].variables == ("variable (a : ℕ)",)
    assert h["m1"].scopes == (Scope(kind="mutual"),) and h["m2"].variables == ()
    assert h["z"].scopes == () and h["z"].variables == ()


def test_prefixes_with_in_and_indented_declarations():
    text = (
        "set_option maxRecDepth 1000 in theorem a : True := sorry\n"
        "variable (n : ℕ) in\nopen Nat in\ntheorem b : n = n := sorry\n"
        "namespace N\n  @[simp] theorem c : True := sorry\n  private lemma d : True := by\n    sorry\nend N\n"
    )
    h = by_label(text)
    assert list(h) == ["a", "b", "N.c", "N.d"]
    assert h["a"].variables == () and h["b"].variables == ("variable (n : ℕ)",)
    assert h["N.d"].kind == "body" and h["N.d"].position == "tactic"


def test_instances_named_and_anonymous():
    text = (
        "instance (priority := low) instFoo : Inhabited ℕ := ⟨sorry⟩\n"
        "instance {α} [Inhabited α] : Inhabited (List α) := sorry\n"
        "theorem «my thm» : True := sorry\n"
    )
    assert [h.label for h in find_holes(text)] == ["instFoo", "instance@2", "«my thm»"]


def test_closers_end_every_open_scope():
    text = "namespace A.B\nsection\nvariable (n : ℕ)\nsection S\nmutual\ntheorem t : n = n := sorry\n"
    (hole,) = find_holes(text)
    assert closers(hole.scopes) == "end\nend S\nend\nend B\nend A\n"
    after = find_holes(text[: hole.decl_end] + "\n" + closers(hole.scopes) + "theorem u : True := sorry\n")
    assert after[-1].qualified == "u" and after[-1].scopes == () and after[-1].variables == ()


def test_fill_changes_only_the_hole_byte_for_byte():
    original = FILE.encode("utf-8")
    for hole in find_holes(FILE):
        out = fill(FILE, hole, "by simp")
        data = out.encode("utf-8")
        start = hole.body_start if hole.kind == "body" else hole.sorry_start
        before = FILE[:start].encode("utf-8")
        after = FILE[hole.sorry_end :].encode("utf-8")
        assert data.startswith(before) and data.endswith(after), hole.label
        assert data[len(before) : len(data) - len(after)] == replacement(FILE, hole, "by simp")[1].encode("utf-8")
        assert original[len(before) : len(original) - len(after)] in (b"sorry", b"by\n  sorry")
        assert hole.label not in by_label(out)


def test_fill_every_hole_last_first_keeps_the_earlier_offsets_valid():
    text = FILE
    for hole in reversed(find_holes(FILE)):
        text = fill(text, hole, "by\n  intro x\n  exact x")
    assert find_holes(text) == []
    assert text.startswith(FILE[: FILE.index("theorem dvd_ex")]) and "a ∣ b * 2" in text and "(1 : ℝ) = 1" in text


def test_fill_renders_tactics_at_the_column_and_terms_in_parentheses():
    h = by_label(FILE)
    out = fill(FILE, h["Foo.Bar.two#sorry1"], "by\n  constructor\n  simp")
    assert "  · constructor\n    simp\n  · exact ⟨sorry, rfl⟩.1" in out
    out = fill(FILE, h["Foo.Bar.two#sorry1"], "foo bar")
    assert "  · exact foo bar\n" in out
    out = fill(FILE, h["Foo.Bar.two#sorry2"], "by\n  simp\n  ring")
    pad = " " * (len("  · exact ⟨") + 2)  # two past the column of the sorry
    assert f"exact ⟨(by\n{pad}simp\n{pad}ring), rfl⟩.1" in out
    out = fill(FILE, h["Foo.Bar.two#sorry2"], "by simp")
    assert "exact ⟨(by simp), rfl⟩.1" in out
    out = fill(FILE, h["Foo.Bar.two#sorry2"], "le_refl _")
    assert "exact ⟨(le_refl _), rfl⟩.1" in out and fill(FILE, h["glob"], "rfl").count("exact rfl") == 1
    out = fill(FILE, h["dvd_ex"], "by\n  apply Dvd.dvd.mul_right\n  exact h")
    assert "a ∣ b * 2 := by\n  apply Dvd.dvd.mul_right\n  exact h\n\nnamespace" in out
    out = fill(FILE, h["Foo.Bar.pos"], "hx")
    assert "theorem pos : 0 < x := hx\n" in out


def test_fill_refuses_stale_offsets_and_empty_proofs():
    hole = find_holes(FILE)[1]
    with pytest.raises(ValueError, match="find the holes again"):
        fill("-- one more line\n" + FILE, hole, "by simp")
    with pytest.raises(ValueError, match="empty proof"):
        fill(FILE, hole, "  \n")


def recorded_commands():
    """(cmd, response) of every recorded plain command (no extra options) whose answer lists sorries."""
    for f in sorted(DATA.rglob("*.in")):
        out = f.with_name(f.name[: -len(".in")] + ".expected.out")
        if not out.exists():
            continue
        reqs = [json.loads(q) for q in P.split_requests(f.read_text(encoding="utf-8"))]
        for req, resp in zip(reqs, P.split_responses(out.read_text(encoding="utf-8"))):
            if "cmd" in req and set(req) <= {"cmd", "env"} and resp.get("sorries"):
                yield f.relative_to(DATA), req["cmd"], resp


RECORDED = list(recorded_commands())


def test_enough_recorded_sorries():
    assert len(RECORDED) >= 100


def test_static_positions_agree_with_the_recorded_repl():
    """Lean reports each sorry it elaborated at (line, column in code points). Every one of them is
    a hole found statically; when Lean reported no error, the two sets are equal (after an error,
    e.g. a sorry with no goal left, Lean reports fewer)."""
    for where, cmd, resp in RECORDED:
        reported = {(s["pos"]["line"], s["pos"]["column"]) for s in resp["sorries"]}
        found = {(h.line, h.sorry_start - (cmd.rfind("\n", 0, h.sorry_start) + 1)) for h in find_holes(cmd)}
        assert reported <= found, where
        if not any(m.get("severity") == "error" for m in resp.get("messages", [])):
            assert reported == found, where
