import networkx as nx
import pytest
from prover_testlib import DATA

from lean_tools.assistant import LEAN, ROCQ, assistant
from prover.errors import BadProblem
from prover.problem import load_problem, problem_from_text, render_candidate
from sketch.graph import dependency_graph, needed_lemmas
from sketch.parse import SketchParseError, parse_sketch


def test_load_problem_rocq_parts():
    p = load_problem(DATA / "double_le.v")
    assert p.language == "rocq" and p.theorem_name == "double_le"
    assert p.header.startswith("Require Import Arith Lia.")
    assert p.declaration == "Theorem double_le (n m : nat) : n <= m -> 2 * n <= 2 * m + 1."
    text = render_candidate(p, "lia.", "Lemma a : True.\nProof. exact I. Qed.")
    assert text.index("Lemma a") < text.index("Theorem double_le") and text.rstrip().endswith("Qed.")


@pytest.mark.parametrize(
    "text,needle",
    [
        ("Require Import Arith.\n", "no theorem"),
        ("Theorem t : True.\nProof. exact I. Qed.\n", "already proved"),
        ("Theorem a : True.\nAdmitted.\nTheorem b : True.\nAdmitted.\n", None),
    ],
)
def test_bad_problems(text, needle):
    if needle is None:
        assert problem_from_text(text, "rocq").theorem_name == "b"  # default: the last open one
        assert problem_from_text(text, "rocq", theorem="a").theorem_name == "a"
        with pytest.raises(BadProblem, match=r"no theorem named|not found"):
            problem_from_text(text, "rocq", theorem="zzz")
        return
    with pytest.raises(BadProblem, match=needle):
        problem_from_text(text, "rocq")


def test_bad_suffix_and_missing(tmp_path):
    with pytest.raises(BadProblem, match="unknown file type"):
        load_problem(tmp_path / "x.txt")
    with pytest.raises(BadProblem, match="no such file"):
        load_problem(tmp_path / "x.v")


def test_lean_problem_and_render():
    text = "import Mathlib\n\ntheorem foo (x : ℕ) (h : x = 2) : x + 0 = 2 := by\n  sorry\n"
    p = problem_from_text(text, "lean")
    assert p.declaration == "theorem foo (x : ℕ) (h : x = 2) : x + 0 = 2"
    out = render_candidate(p, "simp [h]")
    assert "theorem foo (x : ℕ) (h : x = 2) : x + 0 = 2 := by\n  simp [h]" in out
    assert LEAN.has_hole("by sorry") and not LEAN.has_hole("simp -- sorry in a comment")


def test_rocq_declarations_skip_comments():
    text = "(* Lemma fake : False. *)\nLemma a (n : nat) : n = n.\nProof. reflexivity. Qed.\nLemma b : True.\nAdmitted.\n"
    ds = ROCQ.declarations(text)
    assert [d.name for d in ds] == ["a", "b"]
    assert not ROCQ.has_hole(ds[0].proof) and ROCQ.has_hole(ds[1].proof)


SKETCH = """Plan first.
```coq
Lemma l1 (n : nat) : n + 0 = n.
Admitted.
Lemma l2 (n : nat) : 0 + n + 0 = n.
Proof. rewrite l1. reflexivity. Qed.
Lemma unused : True.
Admitted.
Theorem t (n : nat) : 0 + n + 0 = n.
Proof.
  apply l2.
Qed.
```"""


def test_parse_sketch_and_graph():
    ps = parse_sketch(SKETCH, assistant("rocq"), "t")
    assert [lem.name for lem in ps.lemmas] == ["l1", "l2", "unused"]
    assert ps.lemmas[0].proof is None and "rewrite l1" in ps.lemmas[1].proof
    g = dependency_graph(ps.lemmas, "t", ps.main_proof)
    assert isinstance(g, nx.DiGraph)
    assert needed_lemmas(g, "t") == ["l1", "l2"]  # dependencies first; unused dropped


def test_sketch_keeps_attributed_and_property_lemmas():
    """The sketch reads declarations with the verdict's parser: a `#[local] Lemma` and a
    `Property` are lemmas too (an earlier second parser dropped both, silently)."""
    reply = (
        "```coq\n#[local] Lemma l1 (n : nat) : n + 0 = n.\nAdmitted.\n"
        "Property l2 (n : nat) : 0 + n = n.\nProof. reflexivity. Qed.\n"
        "Theorem t (n : nat) : 0 + n + 0 = n.\nProof. rewrite l1. apply l2. Qed.\n```"
    )
    ps = parse_sketch(reply, ROCQ, "t")
    assert [lem.name for lem in ps.lemmas] == ["l1", "l2"]
    assert ps.lemmas[0].declaration == "#[local] Lemma l1 (n : nat) : n + 0 = n." and ps.lemmas[0].proof is None
    assert ps.lemmas[1].declaration.startswith("Property l2") and ps.lemmas[1].proof.strip() == "reflexivity."
    assert ps.main_proof.strip() == "rewrite l1. apply l2."


def test_declarations_of_model_output_are_lenient():
    """An unterminated comment in model output blanks to the end instead of raising; a Lean
    `example` has no name and is not a declaration one can refer to."""
    ds = ROCQ.declarations("Lemma a : True.\nProof. exact I. Qed.\n(* unfinished")
    assert [d.name for d in ds] == ["a"] and not ROCQ.has_hole(ds[0].proof)
    lean = "theorem a : True := by\n  trivial\n\nexample : 1 = 1 := rfl\n\nlemma b : True := trivial\n/- open"
    ds = LEAN.declarations(lean)
    assert [d.name for d in ds] == ["a", "b"] and ds[0].proof.strip() == "trivial"
    assert ds[1].proof.startswith(" trivial") and not LEAN.has_hole(ds[1].proof)


@pytest.mark.parametrize(
    "reply,msg",
    [
        ("no code here", "no ```coq code block"),
        ("```coq\nLemma a : True.\nAdmitted.\n```", "must end with the theorem"),
        ("```coq\nTheorem t (n : nat) : n = n.\nProof. admit. Qed.\n```", "must be complete"),
        ("```coq\nLemma a : True.\nAdmitted.\nLemma a : True.\nAdmitted.\nTheorem t : True.\nProof. exact I. Qed.\n```", "used twice"),
    ],
)
def test_parse_sketch_errors(reply, msg):
    with pytest.raises(SketchParseError, match=msg):
        parse_sketch(reply, assistant("rocq"), "t")


def test_cycle_is_an_error():
    from prover.records import LemmaSpec

    lems = (
        LemmaSpec(name="a", declaration="Lemma a : True.", proof="exact b."),
        LemmaSpec(name="b", declaration="Lemma b : True.", proof="exact a."),
    )
    g = dependency_graph(lems, "t", "exact a.")
    with pytest.raises(ValueError, match="cycle"):
        needed_lemmas(g, "t")


@pytest.mark.parametrize("language,path", [("lean", "examples/lean/mathd_algebra_455.lean"), ("rocq", "examples/rocq/double_le.v")])
def test_assembled_candidates_pass_the_static_soundness_rules(language, path):
    """What the orchestrator assembles (helpers + proof) meets the verdict's candidate rule."""
    from prover_testlib import ROOT

    from lean_tools.soundness import verify

    p = load_problem(ROOT / path)
    lang = assistant(language)
    if language == "lean":
        lemma = lang.render("lemma step (x : ℝ) (h : 2 * (2 * (2 * (2 * x))) = 48) : 16 * x = 48", "linarith")
        cand = render_candidate(p, "have := step x h₀\nlinarith", lemma)
    else:
        lemma = lang.render("Lemma step (n m : nat) : n <= m -> 2 * n <= 2 * m.", "intros; lia.")
        cand = render_candidate(p, "intros H. pose proof (step n m H). lia.", lemma)
    v = verify(p.text, cand, language, static_only=True)
    assert v.reason == "passed static checks (not yet checked by the proof assistant)", v.reason
    bad = render_candidate(p, "sorry" if language == "lean" else "admit.", lemma)
    assert not verify(p.text, bad, language, static_only=True).accepted


def test_bundled_examples_load():
    from prover_testlib import ROOT

    files = sorted((ROOT / "examples" / "rocq").glob("*.v")) + sorted((ROOT / "examples" / "lean").glob("*.lean"))
    assert len(files) >= 6
    for f in files:
        p = load_problem(f)
        assert p.theorem_name and p.declaration.strip()


def test_the_example_project_has_its_holes():
    from prover_testlib import ROOT

    from lean_tools.rocq.holes import find_holes

    holes = find_holes((ROOT / "examples" / "project" / "theories" / "Holes.v").read_text(encoding="utf-8"))
    assert [h.label for h in holes] == ["k_pos", "twice_k_ge", "Sums.sum_to_closed", "twice_mono"]
    assert find_holes((ROOT / "examples" / "project" / "theories" / "Defs.v").read_text(encoding="utf-8")) == []
