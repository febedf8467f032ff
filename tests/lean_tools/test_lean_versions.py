"""Version agreement of lean-toolchain, lake-manifest.json and the REPL, and the shipped lean_project/."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from lean_tools import types as T
from lean_tools.lean import versions as V

ROOT = Path(__file__).resolve().parents[2]
PROJECT = ROOT / "lean_project"


def make(
    root: Path, toolchain: str | None, packages: list[dict], package_toolchains: dict[str, str] | None = None
) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    if toolchain is not None:
        (root / "lean-toolchain").write_text(toolchain + "\n")
    (root / "lake-manifest.json").write_text(
        json.dumps({"version": "1.1.0", "packagesDir": ".lake/packages", "packages": packages})
    )
    for name, tc in (package_toolchains or {}).items():
        d = root / ".lake" / "packages" / name
        d.mkdir(parents=True)
        (d / "lean-toolchain").write_text(tc)
    return root


def pkg(name: str, input_rev: str) -> dict:
    return {"name": name, "inputRev": input_rev, "rev": "0" * 40, "type": "git"}


@pytest.mark.parametrize(
    "text,want",
    [
        ("leanprover/lean4:v4.27.0", "4.27.0"),
        ("leanprover/lean4:v4.33.0-rc2\n", "4.33.0-rc2"),
        ('"4.9.0"', "4.9.0"),
        ("Lean (version 4.15.0, x86_64-unknown-linux-gnu, commit abc, Release)", "4.15.0"),
        ("4.19.0, commit 1234abcd", "4.19.0"),
        ("master", None),
        (None, None),
    ],
)
def test_normalise(text, want):
    assert V.normalise(text) == want


def test_agreeing_project(tmp_path):
    p = make(
        tmp_path,
        "leanprover/lean4:v4.27.0",
        [pkg("mathlib", "v4.27.0"), pkg("REPL", "v4.27.0")],
        {"mathlib": "leanprover/lean4:v4.27.0"},
    )
    v = V.check(p)
    assert v.lean == "4.27.0" and v.mathlib_input_rev == "v4.27.0" and v.mathlib_toolchain == "4.27.0"
    assert V.check(p, repl_reported='"4.27.0"').lean == "4.27.0"


def test_mismatches_are_refused(tmp_path):
    p = make(tmp_path / "a", "leanprover/lean4:v4.27.0", [pkg("mathlib", "v4.26.0"), pkg("REPL", "v4.27.0")])
    with pytest.raises(T.VersionMismatch, match=r"Mathlib is pinned to v4\.26\.0"):
        V.check(p)
    p = make(tmp_path / "b", "leanprover/lean4:v4.27.0", [pkg("mathlib", "v4.27.0"), pkg("repl", "v4.15.0")])
    with pytest.raises(T.VersionMismatch, match="REPL"):
        V.check(p)
    p = make(
        tmp_path / "c",
        "leanprover/lean4:v4.27.0",
        [pkg("mathlib", "master")],
        {"mathlib": "leanprover/lean4:v4.28.0-rc1"},
    )
    with pytest.raises(T.VersionMismatch, match=r"built for Lean v4\.28\.0-rc1"):
        V.check(p)
    p = make(tmp_path / "d", "leanprover/lean4:v4.27.0", [pkg("mathlib", "v4.27.0")])
    with pytest.raises(T.VersionMismatch, match="running REPL reports"):
        V.check(p, repl_reported="4.9.0")


def test_branch_revs_are_noted_not_refused(tmp_path):
    p = make(tmp_path, "leanprover/lean4:v4.27.0", [pkg("mathlib", "master")])
    bad, notes = V.problems(V.read_versions(p))
    assert bad == [] and any("not a version tag" in n for n in notes) and any("REPL" in n for n in notes)


def test_missing_toolchain_is_not_installed(tmp_path):
    with pytest.raises(T.NotInstalled, match="prover-setup lean"):
        V.read_versions(tmp_path)


def test_shipped_lean_project_is_consistent():
    """lean_project/ pins Lean, Mathlib and the REPL to one version, with autoImplicit off."""
    v = V.check(PROJECT)
    assert v.lean == "4.27.0"
    assert v.mathlib_input_rev == "v4.27.0" and v.repl_input_rev == "v4.27.0"
    assert len(v.mathlib_rev or "") == 40 and len(v.repl_rev or "") == 40
    lakefile = tomllib.loads((PROJECT / "lakefile.toml").read_text())
    assert lakefile["leanOptions"]["autoImplicit"] is False
    revs = {r["name"].lower(): r["rev"] for r in lakefile["require"]}
    assert revs == {"mathlib": "v4.27.0", "repl": "v4.27.0"}
    manifest = json.loads((PROJECT / "lake-manifest.json").read_text())
    names = {p["name"] for p in manifest["packages"]}
    assert {
        "mathlib",
        "REPL",
        "batteries",
        "aesop",
        "Qq",
        "proofwidgets",
        "plausible",
        "LeanSearchClient",
        "importGraph",
    } <= names
    assert all(len(p["rev"]) == 40 for p in manifest["packages"])
    assert (PROJECT / "README.md").is_file()
