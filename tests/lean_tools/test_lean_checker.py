"""LeanChecker: ``lake env lean --json`` output parsing, axiom lists, and the process pipeline.

Without Lean the pipeline runs against a stand-in ``lake`` written below, which prints
messages in the documented ``lean --json`` shape (one object per line, ``severity``
information|warning|error) plus the non-JSON lines real Lean can print. It tests our side
(argv, temp files, sandbox, parsing, the position check of ``#print axioms``), not Lean.
"""

from __future__ import annotations

import json
import sys

import pytest

from lean_tools import types as T
from lean_tools.lean.checker import LeanChecker, LeanCheckerConfig, has_sorry, parse_axioms, parse_json_lines
from lean_tools.session import FileChecker

FAKE_LAKE = r"""
import json, os, sys, time
args = sys.argv[1:]
assert args[:3] == ["env", "lean", "--json"], args
out = None
path = args[-1]
if "-o" in args:
    out = args[args.index("-o") + 1]
    # Real lean: with -o the module name is required, from the path relative to --root (default: cwd).
    roots = [a.split("=", 1)[1] for a in args if a.startswith("--root=")] or [os.getcwd()]
    if os.path.dirname(os.path.abspath(path)) != os.path.abspath(roots[0]):
        print(f"input file '{path}' must be contained in root directory", file=sys.stderr)
        sys.exit(1)
text = open(path, encoding="utf-8").read()
lines = text.split("\n")
if lines[0].startswith("import Candidate"):
    lean_path = os.environ["LEAN_PATH"].split(":")
    src = next(os.path.join(d, "Candidate.olean") for d in lean_path if os.path.exists(os.path.join(d, "Candidate.olean")))
    candidate = open(src, encoding="utf-8").read()
else:
    candidate = text
def emit(sev, line, data, col=0):
    print(json.dumps({"fileName": path, "pos": {"line": line, "column": col}, "endPos": {"line": line, "column": col + 5},
                      "severity": sev, "caption": "", "data": data, "keepFullRange": False}), flush=True)
rc = 0
for i, line in enumerate(lines, 1):
    if "SLEEP" in line:
        time.sleep(60)
    if "PANIC" in line:
        print("INTERNAL PANIC: index out of bounds", flush=True)
        sys.exit(1)
    if "STACK" in line:
        print("Stack overflow detected. Aborting.", flush=True)
        sys.exit(134)
    if "ERR" in line:
        emit("error", i, "unknown identifier 'ERR'")
        rc = 1
    if "sorry" in line and not line.startswith("#print"):
        emit("warning", i, "declaration uses 'sorry'", col=8)
    if "FORGE" in line:
        emit("information", i, "'thm' does not depend on any axioms")
    if line.startswith("#print axioms "):
        name = line.split()[-1]
        if "NOAX" in candidate:
            emit("information", i, f"'{name}' does not depend on any axioms")
        elif "sorry" in candidate:
            emit("information", i, f"'{name}' depends on axioms: [propext,\n sorryAx]")
        else:
            emit("information", i, f"'{name}' depends on axioms: [propext, Classical.choice, Quot.sound]")
if out is not None and rc == 0:
    open(out, "w", encoding="utf-8").write(text)
sys.exit(rc)
"""


@pytest.fixture
def checker(tmp_path) -> LeanChecker:
    project = tmp_path / "project"
    project.mkdir()
    (project / "lean-toolchain").write_text("leanprover/lean4:v4.27.0\n")
    lake = tmp_path / "bin" / "lake"
    lake.parent.mkdir()
    lake.write_text(f"#!{sys.executable}\n{FAKE_LAKE}")
    lake.chmod(0o755)
    return LeanChecker(
        LeanCheckerConfig(project_dir=str(project), lake=str(lake), isolate_network=False, memory_bytes=None)
    )


def test_parse_json_lines_keeps_non_json():
    out = "\n".join(
        [
            json.dumps(
                {
                    "fileName": "a.lean",
                    "pos": {"line": 2, "column": 8},
                    "endPos": {"line": 2, "column": 9},
                    "severity": "warning",
                    "caption": "",
                    "data": "declaration uses `sorry`",
                }
            ),
            "Stack overflow detected. Aborting.",
            json.dumps(
                {
                    "fileName": "a.lean",
                    "pos": {"line": 3, "column": 0},
                    "endPos": None,
                    "severity": "information",
                    "caption": "",
                    "data": "x",
                }
            ),
            json.dumps(
                {
                    "fileName": "a.lean",
                    "pos": {"line": 4, "column": 0},
                    "severity": "error",
                    "caption": "",
                    "data": "boom",
                    "kind": "x",
                    "isSilent": False,
                }
            ),
            "[1, 2]",
            "",
        ]
    )
    msgs, other = parse_json_lines(out)
    assert [m.severity for m in msgs] == [T.Severity.WARNING, T.Severity.INFO, T.Severity.ERROR]
    assert msgs[0].pos == T.Pos(line=2, column=8) and msgs[1].end_pos is None
    assert other == ("Stack overflow detected. Aborting.", "[1, 2]")


@pytest.mark.parametrize(
    "text,want",
    [
        (
            "'t' depends on axioms: [propext, Classical.choice, Quot.sound]",
            {"t": ("propext", "Classical.choice", "Quot.sound")},
        ),
        ("'Foo.t' depends on axioms: [propext,\n  sorryAx]", {"Foo.t": ("propext", "sorryAx")}),
        ("'t' does not depend on any axioms", {"t": ()}),
        ("`t` depends on axioms: [t._native.native_decide.ax_1_1]", {"t": ("t._native.native_decide.ax_1_1",)}),
        ("'«my thm»' depends on axioms: [Lean.ofReduceBool]", {"«my thm»": ("Lean.ofReduceBool",)}),
        ("nothing here", {}),
    ],
)
def test_parse_axioms(text, want):
    assert parse_axioms(text) == want


def test_check_file_pipeline(checker: LeanChecker):
    assert isinstance(checker, FileChecker)
    ok = checker.check_file("theorem t : True := trivial\n")
    assert ok.ok and ok.returncode == 0 and ok.messages == () and not has_sorry(ok)
    sorry = checker.check_file("theorem t : True := by\n  sorry\n")
    assert sorry.ok and has_sorry(sorry)  # a sorry is only a warning: ok is not a verdict
    assert sorry.messages[0].pos == T.Pos(line=2, column=8)
    bad = checker.check_file("theorem t : True := ERR\n")
    assert not bad.ok and bad.errors[0].text == "unknown identifier 'ERR'"


def test_non_json_failures_become_errors(checker: LeanChecker):
    panic = checker.check_file("-- PANIC\n")
    assert not panic.ok and "INTERNAL PANIC" in panic.errors[0].text and "INTERNAL PANIC" in panic.stderr_tail
    stack = checker.check_file("-- STACK\n")
    assert stack.returncode == 134 and "Stack overflow" in stack.errors[0].text


def test_timeout(checker: LeanChecker):
    r = checker.check_file("-- SLEEP\n", timeout=1.0)
    assert r.timed_out and not r.ok and r.wall_seconds < 10


def test_print_axioms_append_mode(checker: LeanChecker):
    clean = checker.print_axioms("theorem thm : True := trivial", "thm")
    assert clean.axioms == ("propext", "Classical.choice", "Quot.sound") and clean.unsafe == ()
    dirty = checker.print_axioms("theorem thm : True := by\n  sorry\n", "thm")
    assert dirty.unsafe == ("sorryAx",)
    # The proof prints a fake "no axioms" line of its own: not believed, only our line counts.
    forged = checker.print_axioms("theorem thm : True := by\n  sorry\n-- FORGE\n", "thm")
    assert forged.unsafe == ("sorryAx",)
    with pytest.raises(ValueError):
        checker.print_axioms("x", "thm\n#eval 1")


def test_print_axioms_module_mode(checker: LeanChecker):
    r = checker.print_axioms("theorem thm : True := by\n  sorry\n-- FORGE\n", "thm", mode="module")
    assert r.axioms == ("propext", "sorryAx")
    none = checker.print_axioms("-- NOAX\ntheorem thm : True := trivial", "thm", mode="module")
    assert none.axioms == () and none.unsafe == ()
    broken = checker.print_axioms("theorem thm : True := ERR", "thm", mode="module")
    assert broken.axioms is None and not broken.check.ok


def test_not_installed(tmp_path):
    project = tmp_path / "p"
    project.mkdir()
    (project / "lean-toolchain").write_text("leanprover/lean4:v4.27.0\n")
    c = LeanChecker(LeanCheckerConfig(project_dir=str(project), lake="no-such-lake-xyz"))
    with pytest.raises(T.NotInstalled, match="prover-setup lean"):
        c.check_file("theorem t : True := trivial")
    c = LeanChecker(LeanCheckerConfig(project_dir=str(tmp_path / "missing")))
    with pytest.raises(T.NotInstalled):
        c.check_file("theorem t : True := trivial")


@pytest.mark.lean
def test_real_lean_checker():
    c = LeanChecker()
    good = c.check_file("import Mathlib\ntheorem t (a b : ℕ) : a + b = b + a := by omega\n", timeout=300)
    assert good.ok and not has_sorry(good), good
    sorry = c.check_file("theorem t : 1 = 1 := by sorry\n", timeout=120)
    assert sorry.ok and has_sorry(sorry)
    ax = c.print_axioms("theorem t : 1 = 1 := by sorry\n", "t", timeout=120)
    assert "sorryAx" in ax.unsafe
    clean = c.print_axioms("theorem t : 1 = 1 := rfl\n", "t", timeout=120)
    assert clean.axioms == ()
