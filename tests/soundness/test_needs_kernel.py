"""Lean candidates the static screens cannot judge: neither accepted nor rejected without Lean.

Data: tests/data/soundness/needs_kernel/lean/ (README there). Each honest file is written in a
style published proofs use (a multi-part problem, ``#print``/``#check`` inside a proof,
compfiles-style metaprogramming helpers, grind/simp↓ attributes, ``nonrec``, ``open`` inside a
proof) and expects either ``static`` (passes the static layer) or ``needs_kernel`` (verdict stage
``needs_kernel``, ``needs Lean to judge: ...``, exit 2); each cheat beside it expects
``rejected`` (for the named rule) or, where only Lean's checks can see the cheat,
``needs_kernel``, never accepted. The kernel replay that judges them with Lean
(``lean_tools.soundness.kernel_replay``) is tested here on its program text, on recorded-style
outputs and through a stand-in ``lake``; it never runs against a real Lean in this tier.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from soundness_suite import DATA, _meta

from lean_tools.lean.checker import LeanChecker, LeanCheckerConfig
from lean_tools.parsing import parse_source
from lean_tools.soundness import screen_lean, verify
from lean_tools.soundness.kernel_replay import build_replay_program, parse_replay_output, replay_rejection
from lean_tools.soundness.lean_terms import lean_name
from lean_tools.soundness.lean_verify import problem_owned_lines, verify_lean
from lean_tools.types import FileCheck, Message, NotInstalled, Severity
from prover.commands.check import main

ROOT = DATA / "needs_kernel" / "lean"
NONCE = "0123456789abcdef"


@dataclass(frozen=True)
class KCase:
    path: Path
    problem: Path
    kind: str
    expect: str
    style: str
    rules: tuple[str, ...]
    theorem: str | None

    @property
    def id(self) -> str:
        return self.path.stem

    def texts(self) -> tuple[str, str]:
        return self.problem.read_text(encoding="utf-8"), self.path.read_text(encoding="utf-8")


def _load(kind: str) -> list[KCase]:
    out = []
    for f in sorted((ROOT / kind).glob("*.lean")):
        m = _meta(f.read_text(encoding="utf-8").splitlines()[0])
        out.append(
            KCase(
                path=f,
                problem=ROOT / "problems" / m["problem"],
                kind=m["head"].partition(":")[0].strip(),
                expect=m["expect"],
                style=m["class"],
                rules=tuple(r.strip() for r in m.get("static", "").split(",") if r.strip()),
                theorem=m.get("theorem"),
            )
        )
    return out


HONEST = _load("honest")
CHEATS = _load("cheats")


def _lean_installed() -> bool:
    try:
        LeanChecker()._prefix()
        LeanChecker()._project()
    except NotInstalled:
        return False
    return True  # pragma: no cover - a machine with Lean


def test_every_class_has_honest_files_and_cheats():
    assert {c.kind for c in HONEST} == {"honest"} and {c.kind for c in CHEATS} == {"cheat"}
    for cls in ("a", "b", "c"):
        assert any(c.style == cls for c in HONEST) and any(c.style == cls and c.expect == "rejected" for c in CHEATS), cls
    assert {c.expect for c in HONEST} == {"static", "needs_kernel"}
    assert all(c.problem.exists() for c in HONEST + CHEATS)


@pytest.mark.parametrize("case", HONEST, ids=lambda c: c.id)
def test_honest_static_layer(case):
    problem, candidate = case.texts()
    v = verify(problem, candidate, "lean", case.theorem, static_only=True)
    assert not v.accepted
    if case.expect == "static":
        assert v.stage == "candidate" and "passed static checks" in v.reason, f"{case.id}: {v.reason}"
    else:
        assert v.stage == "needs_kernel" and v.reason.startswith("needs Lean to judge: "), f"{case.id}: {v.reason}"
        assert v.details["findings"] and all(f["kernel"] for f in v.details["findings"])
        assert "\n" not in v.reason


@pytest.mark.parametrize("case", [c for c in HONEST if c.expect == "needs_kernel"], ids=lambda c: c.id)
def test_honest_needs_lean_without_lean(case, capsys):
    if _lean_installed():  # pragma: no cover - a machine with Lean
        pytest.skip("Lean is installed here: the replay judges it")
    problem, candidate = case.texts()
    v = verify(problem, candidate, "lean", case.theorem)
    assert not v.accepted and v.stage == "needs_kernel" and "lake" in v.details["missing"], v.reason
    theorem = ["--theorem", case.theorem] if case.theorem else []
    assert main([str(case.problem), str(case.path), *theorem]) == 2
    out = capsys.readouterr()
    assert out.out == "" and "needs Lean to judge: " in out.err and out.err.count("\n") == 1
    assert main([str(case.problem), str(case.path), *theorem, "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["stage"] == "needs_kernel"


@pytest.mark.parametrize("case", CHEATS, ids=lambda c: c.id)
def test_cheat_never_accepted(case, capsys):
    problem, candidate = case.texts()
    v = verify(problem, candidate, "lean", case.theorem, static_only=True)
    assert not v.accepted
    theorem = ["--theorem", case.theorem] if case.theorem else []
    code = main([str(case.problem), str(case.path), *theorem, "--static-only"])
    if case.expect == "rejected":
        rules = {f["rule"] for f in v.details.get("findings", [])}
        assert v.stage in ("candidate", "screen") and rules & set(case.rules), f"{case.id}: {sorted(rules)}: {v.reason}"
        assert "cannot be judged" not in v.reason, v.reason  # the reason names a rejecting finding
        assert code == 1 and capsys.readouterr().out.startswith("REJECTED")
    else:
        assert v.stage == "needs_kernel", v.reason
        assert code == 2


def test_which_findings_wait_for_the_kernel():
    def kernel(text: str, role: str = "proof") -> set[bool]:
        return {f.kernel for f in screen_lean(text, role=role)}

    assert kernel("by\n  omega\n  #print axioms foo") == {True}
    assert kernel("by\n  open Classical in\n  simp") == {True}
    assert kernel("def n : Lean.Name := `x\n", "helpers") == {True}
    assert kernel('macro "go" : tactic => `(tactic| simp)\n', "helpers") == {True}
    assert kernel("open Lean Elab in\ndef n : Name := `x\n", "helpers") == {True}
    assert kernel("@[tactic foo] def evalFoo : Tactic := fun _ => pure ()\n", "helpers") == {True}
    # certain cheats stay rejections
    assert kernel("by\n  simp\n  #eval 1") == {False}
    assert kernel("unsafe def f : False := f\n", "helpers") == {False}
    assert kernel("open Classical\ntheorem h : True := trivial\n", "helpers") == {False}
    assert False in kernel("by\n  #check 1\n  sorry")
    assert False in kernel('elab "go" : command => Lean.addDecl d\n', "helpers")
    # grind / simp↓ / nonrec are trust-neutral: no finding at all
    for text in ("@[grind =] theorem a : 1 = 1 := rfl\n", "@[grind! .] theorem a : 1 = 1 := rfl\n",
                 "@[simp↓] theorem a : 1 = 1 := rfl\n", "@[simp ↓] theorem a : 1 = 1 := rfl\n",
                 "nonrec def a : ℕ := 1\n", "open Nat in\nnonrec theorem a : 1 = 1 := rfl\n"):
        assert screen_lean(text, role="helpers") == (), text
    assert screen_lean("@[grind =, csimp] theorem a : 1 = 1 := rfl\n", role="helpers")


def test_own_axiom_report_inside_the_proof_stays_rejected():
    p = "import Mathlib\n\ntheorem t (n : ℕ) : n + 0 = n := by\n  sorry\n"
    v = verify(p, p.replace("  sorry", "  simp\n  #print axioms t"), "lean", static_only=True)
    assert v.stage == "screen" and "imitates the axiom report" in v.reason
    v = verify(p, p.replace("  sorry", "  simp\n  #print axioms Nat.add_zero"), "lean", static_only=True)
    assert v.stage == "needs_kernel"


def test_shadowing_in_multi_part_problems():
    problem = (ROOT / "problems" / "two_parts.lean").read_text(encoding="utf-8")
    honest = next(c for c in HONEST if c.id.startswith("a1")).path.read_text(encoding="utf-8")
    assert verify(problem, honest, "lean", "part_a", static_only=True).stage == "candidate"
    # the same helper before part (b), whose statement uses `f`: rejected
    cand = problem.replace("theorem part_b", "def f (n : ℕ) : ℕ := n\n\ntheorem part_b").replace(
        "f 3 = 12 := by\n  sorry", "f 3 = 12 := by\n  rw [hf]"
    )
    v = verify(problem, cand, "lean", "part_b", static_only=True)
    assert v.stage == "screen" and "candidate.shadowing" in v.reason
    # a definition after the target that uses `f` still counts (only other theorem-like parts are skipped)
    later = "def later (n : ℕ) : ℕ := f n\n\n/-- Part (b)"
    v = verify(problem.replace("/-- Part (b)", later), honest.replace("/-- Part (b)", later), "lean", "part_a", static_only=True)
    assert v.stage == "screen" and "candidate.shadowing" in v.reason


def test_callers_count_needs_kernel_as_not_proved():
    from benchmarks.problem import BenchProblem
    from benchmarks.prover_attempt import recheck

    if _lean_installed():  # pragma: no cover - a machine with Lean
        pytest.skip("Lean is installed here: the replay judges it")
    case = next(c for c in HONEST if c.expect == "needs_kernel")
    problem, candidate = case.texts()
    bp = BenchProblem(suite="t", name=case.id, language="lean", text=problem, theorem=case.theorem)
    proved, reason = recheck(bp, candidate, 60)
    assert proved is False and reason.startswith("needs Lean to judge")


# --- the kernel replay ----------------------------------------------------------------------------


def test_replay_program_reads_the_olean_without_importing_it():
    prog = build_replay_program(["Foo", "__prover_reference_x"], ["Foo", "thm"], NONCE)
    assert "import Candidate" not in prog and "enableInitializersExecution" not in prog
    for needle in ("readModuleDataParts", "importModulesCore mod.imports", "toKernelEnv.replay newConstants",
                   lean_name(["Foo", "__prover_reference_x"]), lean_name(["Foo", "thm"]), f'"@@{NONCE}:"'):
        assert needle in prog, needle
    for tag in ("KERNEL:", "REPLAY:", "STATEMENT:", "AXIOMS:[", '"END"'):
        assert tag in prog, tag


def _run(stdout: str = "", rc: int = 0, error: str = "", timed_out: bool = False) -> FileCheck:
    msgs = (Message(severity=Severity.ERROR, text=error),) if error else ()
    return FileCheck(returncode=rc, messages=msgs, stderr_tail=stdout, timed_out=timed_out)


GOOD = f"@@{NONCE}:REPLAY:7@@\n@@{NONCE}:STATEMENT:SAME@@\n@@{NONCE}:AXIOMS:[propext, Quot.sound]@@\n@@{NONCE}:END@@"


@pytest.mark.parametrize(
    ("output", "stage", "words"),
    [
        (_run(GOOD), None, ""),
        (_run(f"@@{NONCE}:KERNEL:(kernel) declaration type mismatch, thm@@", rc=1), "kernel", "refused a declaration"),
        (_run(GOOD.replace("SAME", "DIFFERENT")), "kernel", "not the problem's (DIFFERENT)"),
        (_run(GOOD.replace("Quot.sound", "sorryAx")), "axioms", "sorryAx"),
        (_run(GOOD + f"\n@@{NONCE}:STATEMENT:SAME@@"), "kernel", "STATEMENT=2"),
        (_run(GOOD.replace(f"\n@@{NONCE}:END@@", "")), "kernel", "no trustworthy"),
        (_run(GOOD.replace(NONCE, "f" * 16)), "kernel", "no trustworthy"),
        (_run(GOOD.replace("REPLAY:7", "REPLAY:seven")), "kernel", "unreadable"),
        (_run(GOOD, rc=1), "kernel", "exit code 1"),
        (_run("", rc=1, error="unknown identifier 'readModuleDataParts'"), "kernel", "readModuleDataParts"),
        (_run(GOOD, timed_out=True), "kernel", "timed out"),
    ],
)
def test_replay_answers(output, stage, words):
    v, ans = replay_rejection(output, NONCE, "thm")
    if stage is None:
        assert v is None and ans is not None and ans.replayed == 7 and ans.axioms == ("propext", "Quot.sound")
    else:
        assert v is not None and not v.accepted and v.stage == stage and words in v.reason, v and v.reason
    assert replay_rejection(None, NONCE, "thm")[0].stage == "kernel"
    assert parse_replay_output(_run(GOOD), NONCE).statement == "SAME"


FAKE_LAKE = r"""
import json, os, re, sys
args = sys.argv[1:]
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "calls.log"), "a") as log:
    log.write(json.dumps(args) + "\n")
def emit(sev, line, data):
    print(json.dumps({"pos": {"line": line, "column": 0}, "severity": sev, "data": data}), flush=True)
if args[:3] == ["env", "lean", "--run"]:  # the kernel replay
    program, olean = args[3], args[4]
    cand = open(olean, encoding="utf-8").read()
    nonce = re.search(r'"@@([0-9a-f]+):"', open(program, encoding="utf-8").read()).group(1)
    if "RKERNEL" in cand:
        print(f"@@{nonce}:KERNEL:(kernel) declaration has metavariables 'smuggled'@@"); sys.exit(1)
    if "RSILENT" in cand:
        sys.exit(0)
    stmt = "DIFFERENT" if "RDIFF" in cand else "SAME"
    axioms = "propext, sorryAx" if "RSORRY" in cand else "propext"
    print(f"@@{nonce}:REPLAY:3@@\n@@{nonce}:STATEMENT:{stmt}@@\n@@{nonce}:AXIOMS:[{axioms}]@@\n@@{nonce}:END@@")
    sys.exit(0)
assert args[:3] == ["env", "lean", "--json"], args
text = open(args[-1], encoding="utf-8").read()
if "-o" in args:  # the candidate's build; Lean warns at each declaration that uses sorry
    for i, line in enumerate(text.split("\n"), 1):
        if re.search(r"\bsorry\b", line):
            emit("warning", i, "declaration uses 'sorry'")
    open(args[args.index("-o") + 1], "w", encoding="utf-8").write(text)
    sys.exit(0)
nonce = re.search(r'"@@([0-9a-f]+)"', text).group(1)
emit("information", 4, f"@@{nonce}:STATEMENT:SAME@@\n@@{nonce}:AXIOMS:[propext]@@\n@@{nonce}:END@@")
"""

PROBLEM = "import Mathlib\n\ntheorem thm (a b : ℕ) : (a + b) ^ 2 = a ^ 2 + 2 * a * b + b ^ 2 := by\n  sorry\n"
NEEDS_KERNEL = PROBLEM.replace("  sorry", "  open Nat in\n  ring")


@pytest.fixture
def fake_lake(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "lean-toolchain").write_text("leanprover/lean4:v4.27.0\n")
    lake = tmp_path / "bin" / "lake"
    lake.parent.mkdir()
    lake.write_text(f"#!{sys.executable}\n{FAKE_LAKE}")
    lake.chmod(0o755)
    return LeanChecker(LeanCheckerConfig(project_dir=str(project), lake=str(lake), isolate_network=False, memory_bytes=None))


def _calls(checker: LeanChecker) -> list[list[str]]:
    log = Path(checker.config.lake).parent / "calls.log"
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_flow_with_replay_accepts_only_what_the_replay_confirms(fake_lake):
    problem = parse_source(PROBLEM, "lean")
    v = verify_lean(problem, NEEDS_KERNEL, checker=fake_lake, timeout=60, kernel_replay=True)
    assert v.accepted and v.details["kernel_replay"] == 3 and "kernel replay re-checked 3" in v.reason, v.reason
    replay = _calls(fake_lake)[-1]
    assert replay[:3] == ["env", "lean", "--run"] and replay[3].endswith("Replay.lean") and replay[4].endswith("Candidate.olean")
    for marker, stage, words in (
        ("RKERNEL", "kernel", "refused a declaration"),
        ("RSILENT", "kernel", "no trustworthy"),
        ("RDIFF", "kernel", "DIFFERENT"),
        ("RSORRY", "axioms", "sorryAx"),
    ):
        v = verify_lean(problem, NEEDS_KERNEL + f"-- {marker}\n", checker=fake_lake, timeout=60, kernel_replay=True)
        assert not v.accepted and v.stage == stage and words in v.reason, (marker, v.reason)
    # without the replay the same stand-in answers the query alone, and no replay runs
    n = len(_calls(fake_lake))
    assert verify_lean(problem, NEEDS_KERNEL + "-- RKERNEL\n", checker=fake_lake, timeout=60).accepted
    assert all(call[:3] != ["env", "lean", "--run"] for call in _calls(fake_lake)[n:])


def test_verify_sends_needs_kernel_candidates_to_the_replay(fake_lake, monkeypatch):
    project = Path(fake_lake.config.project_dir or "")
    monkeypatch.setenv("PROVER_LEAN_PROJECT", str(project))
    monkeypatch.setenv("PATH", f"{Path(fake_lake.config.lake).parent}:{os.environ.get('PATH', '')}")
    import lean_tools.lean.checker as lc

    orig = lc.LeanChecker.__init__

    def init(self, config=None):  # no network namespace in this test container
        orig(self, config or LeanCheckerConfig(isolate_network=False, memory_bytes=None))

    monkeypatch.setattr(lc.LeanChecker, "__init__", init)
    v = verify(PROBLEM, NEEDS_KERNEL, "lean", timeout=60)
    assert v.accepted and "kernel replay" in v.reason, v.reason
    v = verify(PROBLEM, NEEDS_KERNEL + "-- RKERNEL\n", "lean", timeout=60)
    assert not v.accepted and v.stage == "kernel"
    assert verify(PROBLEM, NEEDS_KERNEL, "lean", static_only=True).stage == "needs_kernel"
    clean = PROBLEM.replace("  sorry", "  ring")
    assert verify(PROBLEM, clean + "-- RKERNEL\n", "lean", timeout=60).accepted  # no replay for a clean candidate


def test_io_stays_a_rejection():
    # file system / process access while Lean elaborates could tamper with what the replay trusts
    assert {f.kernel for f in screen_lean('def w : IO Unit := IO.FS.writeFile "x" ""\n', role="helpers")} == {False}
    assert {f.kernel for f in screen_lean("open IO in\ndef n : ℕ := 1\n", role="helpers")} == {False}
    assert {f.kernel for f in screen_lean("open Lean Elab in\ndef n : ℕ := 1\n", role="helpers")} == {True}


def test_other_parts_left_open_are_the_problems_sorry(fake_lake):
    problem_text = (ROOT / "problems" / "two_parts.lean").read_text(encoding="utf-8")
    problem = parse_source(problem_text, "lean", theorem="part_a")
    honest = next(c for c in HONEST if c.id.startswith("a1")).path.read_text(encoding="utf-8")
    v = verify_lean(problem, honest, checker=fake_lake, timeout=60)
    assert v.accepted, v.reason  # part (b)'s own `sorry` is the problem's
    for where in ("  exact two_f n", "  | zero => simp [f]"):  # the target's, a helper's: the candidate's
        v = verify_lean(problem, honest.replace(where, where.replace(where.strip(), "sorry")), checker=fake_lake, timeout=60)
        assert not v.accepted and v.stage == "compile" and "sorry" in v.reason, (where, v.reason)
    owned = problem_owned_lines(problem, honest)
    lines = honest.splitlines()
    assert any(a <= lines.index("  sorry") + 1 <= z for a, z in owned)
    assert not any(a <= lines.index("  exact two_f n") + 1 <= z for a, z in owned)
    changed = problem_owned_lines(problem, honest.replace("theorem part_b (f", "theorem part_c (f"))
    assert not any(a <= lines.index("  sorry") + 1 <= z for a, z in changed)  # no longer the problem's text
    assert problem_owned_lines(problem, honest.replace("import Mathlib", "import Mathlib.Tactic")) == ()  # no alignment
