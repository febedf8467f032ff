"""lean_tools.lean.project: Lake project discovery, the REPL command for a project, and one
recorded REPL exchange replayed through ``lake env`` in a project root.

No Lean or Lake runs here. The replay uses tests/lean_tools/fake_repl.py (recorded traffic, strict)
behind a stand-in ``lake`` that, like ``lake env``, refuses to run outside a Lake project and
runs the rest of its command line with ``LEAN_PATH`` set.
"""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

import pytest

from lean_tools import types as T
from lean_tools.lean import protocol as P
from lean_tools.lean.project import (
    LeanProject,
    ProjectError,
    check_toolchain,
    find_project,
)
from lean_tools.lean.repl import LeanReplConfig, LeanReplSession, repl_command, repl_config

HERE = Path(__file__).resolve().parent
FAKE = HERE / "fake_repl.py"
TRANSCRIPT = HERE.parent / "data" / "lean_repl" / "test" / "Mathlib" / "test" / "H20231115.in"
V433 = "leanprover/lean4:v4.33.0-rc2"
REPL_REL = ".lake/packages/REPL/.lake/build/bin/repl"


def manifest(*packages: dict) -> str:
    return json.dumps({"version": "1.1.0", "packagesDir": ".lake/packages", "packages": list(packages), "name": "p"})


def git_package(name: str, tag: str, inherited: bool = False) -> dict:
    return {"url": f"https://example.org/{name}", "type": "git", "rev": "a" * 40, "name": name, "inputRev": tag, "inherited": inherited}


def make_project(root: Path, lakefile: str = "lakefile.toml", toolchain: str | None = V433, packages: tuple[dict, ...] = ()) -> Path:
    (root / "MyProj").mkdir(parents=True, exist_ok=True)
    (root / lakefile).write_text('name = "MyProj"\n' if lakefile.endswith(".toml") else "import Lake\nopen Lake DSL\n", encoding="utf-8")
    if toolchain is not None:
        (root / "lean-toolchain").write_text(toolchain + "\n", encoding="utf-8")
    if packages:
        (root / "lake-manifest.json").write_text(manifest(*packages), encoding="utf-8")
    source = root / "MyProj" / "Basic.lean"
    source.write_text("theorem t : True := sorry\n", encoding="utf-8")
    return source


def test_toml_project_with_manifest(tmp_path):
    source = make_project(tmp_path / "p", packages=(git_package("mathlib", "v4.33.0-rc2"), git_package("plausible", "main", True)))
    project = find_project(source)
    assert project is not None
    assert project.root == str(tmp_path / "p") and project.lakefile == str(tmp_path / "p" / "lakefile.toml")
    assert project.toolchain == V433 and project.lean_version == "4.33.0-rc2"
    assert project.manifest == str(tmp_path / "p" / "lake-manifest.json") and project.packages_dir == ".lake/packages"
    assert [(p.name, p.input_rev, p.inherited) for p in project.packages] == [
        ("mathlib", "v4.33.0-rc2", False),
        ("plausible", "main", True),
    ]
    assert project.package("Mathlib") == project.packages[0]
    assert "mathlib" in project.describe() and "plausible" not in project.describe()


def test_lean_lakefile_wins_when_both_exist_and_the_manifest_is_optional(tmp_path):
    source = make_project(tmp_path, lakefile="lakefile.lean")
    (tmp_path / "lakefile.toml").write_text('name = "other"\n', encoding="utf-8")
    project = find_project(source)
    assert project is not None and Path(project.lakefile).name == "lakefile.lean"
    assert project.manifest is None and project.packages == ()


def test_nearest_project_up_the_tree(tmp_path):
    outer = make_project(tmp_path / "outer")
    inner_root = tmp_path / "outer" / "vendor" / "inner"
    inner = make_project(inner_root, lakefile="lakefile.lean", toolchain="leanprover/lean4:v4.15.0")
    deep = inner_root / "MyProj" / "a" / "b" / "Deep.lean"
    deep.parent.mkdir(parents=True)
    deep.write_text("", encoding="utf-8")
    roots = [getattr(find_project(f), "root", None) for f in (outer, inner, deep, inner_root / "MyProj" / "NotYet.lean")]
    assert roots == [str(tmp_path / "outer"), str(inner_root), str(inner_root), str(inner_root)]
    found = find_project(deep)
    assert found is not None and found.lean_version == "4.15.0"


def test_no_project(tmp_path):
    lone = tmp_path / "a" / "Lone.lean"
    lone.parent.mkdir()
    lone.write_text("example : True := trivial\n", encoding="utf-8")
    (tmp_path / "a" / "lean-toolchain").write_text(V433, encoding="utf-8")  # a toolchain alone is no project
    assert find_project(lone) is None


def test_old_manifest_entries_and_path_packages(tmp_path):
    entries = (
        {"git": {"url": "https://example.org/m", "rev": "b" * 40, "name": "mathlib", "inputRev?": "master"}},
        {"type": "path", "name": "local", "dir": "./../local", "inherited": False},
    )
    source = make_project(tmp_path, packages=entries)
    project = find_project(source)
    assert project is not None
    assert [(p.name, p.type, p.dir) for p in project.packages] == [("mathlib", "git", None), ("local", "path", "./../local")]


@pytest.mark.parametrize("content", ["{not json", '{"packages": {"a": 1}}', '{"packages": [{"url": "x"}]}'])
def test_unreadable_manifest_is_a_clear_error(tmp_path, content):
    source = make_project(tmp_path)
    (tmp_path / "lake-manifest.json").write_text(content, encoding="utf-8")
    with pytest.raises(ProjectError, match=r"lake-manifest\.json"):
        find_project(source)


def installed(tmp_path: Path, toolchain: str = V433) -> Path:
    """A stand-in for the prover's lean_project/: the folder the installed REPL was built in."""
    folder = tmp_path / "installed"
    folder.mkdir()
    (folder / "lean-toolchain").write_text(toolchain + "\n", encoding="utf-8")
    return folder


def test_repl_command_is_lake_env_in_the_project_root(tmp_path):
    inst = installed(tmp_path)
    project = find_project(make_project(tmp_path / "p"))
    assert project is not None
    cmd = repl_command(project, LeanReplConfig(project_dir=str(inst)))
    assert cmd.argv == ("lake", "env", str(inst / REPL_REL))
    assert cmd.cwd == project.root and cmd.repl_project == str(inst)
    config = repl_config(project, LeanReplConfig(project_dir=str(inst), default_timeout=5.0))
    assert (config.repl_argv, config.cwd, config.project_dir, config.default_timeout) == (cmd.argv, project.root, project.root, 5.0)
    custom = LeanReplConfig(project_dir=str(inst), repl_argv=("/opt/repl/bin/repl", "--flag", "rel/x"), cwd=str(tmp_path))
    assert repl_command(project, custom).argv == ("lake", "env", "/opt/repl/bin/repl", "--flag", str(tmp_path / "rel/x"))


def test_the_projects_own_repl_is_preferred_when_built(tmp_path):
    inst = installed(tmp_path, "leanprover/lean4:v4.27.0")
    source = make_project(tmp_path / "p", toolchain="leanprover/lean4:v4.15.0", packages=(git_package("REPL", "v4.15.0"),))
    project = find_project(source)
    assert project is not None
    base = LeanReplConfig(project_dir=str(inst))
    assert repl_command(project, base).argv[2] == str(inst / REPL_REL)  # listed but not built
    binary = tmp_path / "p" / REPL_REL
    binary.parent.mkdir(parents=True)
    binary.write_text("", encoding="utf-8")
    cmd = repl_command(project, base)
    assert cmd.argv == ("lake", "env", str(binary)) and cmd.repl_project == project.root
    check_toolchain(project, cmd.repl_project)  # its own REPL: same Lean by construction


def test_toolchain_mismatch_names_both_versions_and_the_fix(tmp_path):
    inst = installed(tmp_path, "leanprover/lean4:v4.27.0")
    project = find_project(make_project(tmp_path / "p", toolchain="leanprover/lean4:v4.15.0"))
    assert project is not None
    with pytest.raises(T.VersionMismatch, match=r"uses Lean 4\.15\.0 .* built for Lean 4\.27\.0 .*require REPL at the tag v4\.15\.0"):
        check_toolchain(project, inst)
    same = project.model_copy(update={"toolchain": "leanprover/lean4:v4.27.0"})
    check_toolchain(same, inst)
    with pytest.raises(T.VersionMismatch, match="no lean-toolchain"):
        check_toolchain(project.model_copy(update={"toolchain": None}), inst)
    with pytest.raises(T.VersionMismatch, match="names no Lean version"):
        check_toolchain(project.model_copy(update={"toolchain": "stable"}), inst)


FAKE_LAKE = """#!/bin/sh
# Stand-in for `lake env CMD...`: refuses to run outside a Lake project, as lake does.
[ "$1" = "env" ] || { echo "fake lake: only 'env' is supported" >&2; exit 2; }
[ -f lakefile.lean ] || [ -f lakefile.toml ] || { echo "error: no lakefile in $(pwd)" >&2; exit 1; }
shift
pwd > lake-env-ran
LEAN_PATH="$(pwd)/.lake/build/lib" exec "$@"
"""


def fake_elan(tmp_path: Path, monkeypatch) -> None:
    """Put the stand-in ``lake`` where the session looks for elan's binaries."""
    bin_dir = tmp_path / "elan" / "bin"
    bin_dir.mkdir(parents=True)
    lake = bin_dir / "lake"
    lake.write_text(FAKE_LAKE, encoding="utf-8")
    lake.chmod(lake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("ELAN_HOME", str(tmp_path / "elan"))


def fake_repl_base(inst: Path, version: str = "4.33.0-rc2") -> LeanReplConfig:
    argv = (sys.executable, "-I", "-S", str(FAKE), "--transcript", str(TRANSCRIPT), "--lean-version", version, "--pid-file", "pids")
    return LeanReplConfig(project_dir=str(inst), repl_argv=argv, cwd=str(HERE), isolate_network=False, check_versions=True)


def recorded_pairs() -> list[tuple[dict, dict]]:
    reqs = [json.loads(q) for q in P.split_requests(TRANSCRIPT.read_text(encoding="utf-8"))]
    out = TRANSCRIPT.with_name("H20231115.expected.out")
    return list(zip(reqs, P.split_responses(out.read_text(encoding="utf-8"))))


def test_recorded_exchange_through_lake_env_in_the_project_root(tmp_path, monkeypatch):
    fake_elan(tmp_path, monkeypatch)
    inst = installed(tmp_path)
    root = tmp_path / "user project"
    make_project(root, packages=(git_package("mathlib", "v4.33.0-rc2"),))
    project = find_project(root / "MyProj" / "Basic.lean")
    assert project is not None
    (header, _), (cmd, cmd_resp), (tac, tac_resp) = recorded_pairs()
    session = LeanReplSession(header["cmd"], config=fake_repl_base(inst), project=project)
    assert session.config.repl_argv[:2] == ("lake", "env") and session.config.cwd == str(root)
    assert not (root / "pids").exists()  # constructing starts nothing
    with session as s:
        assert s.lean_version == "4.33.0-rc2" and s.header_env == 0
        out = s.run_command(cmd["cmd"])
        assert out.env == cmd_resp["env"] and [h.state for h in out.holes] == [0]
        done = s.run_tactic(tac["proofState"], tac["tactic"])
        assert done.goals == tuple(tac_resp["goals"])
    assert (root / "lake-env-ran").read_text(encoding="utf-8").strip() == str(root)
    assert (root / "pids").read_text(encoding="utf-8").split()  # the REPL's relative paths resolve in the root


def test_toolchain_mismatch_is_refused_before_anything_starts(tmp_path, monkeypatch):
    fake_elan(tmp_path, monkeypatch)
    inst = installed(tmp_path, "leanprover/lean4:v4.27.0")
    root = tmp_path / "p"
    make_project(root)
    project = find_project(root)
    assert project is not None
    session = LeanReplSession("import Mathlib.Tactic.Cases", config=fake_repl_base(inst), project=project)
    with pytest.raises(T.VersionMismatch, match=r"built for Lean 4\.27\.0"):
        session.start()
    session.close()
    assert not (root / "lake-env-ran").exists() and not (root / "pids").exists()


def test_a_repl_reporting_another_lean_is_refused_at_start(tmp_path, monkeypatch):
    fake_elan(tmp_path, monkeypatch)
    inst = installed(tmp_path)
    root = tmp_path / "p"
    make_project(root)
    project = find_project(root)
    assert isinstance(project, LeanProject)
    session = LeanReplSession("import Mathlib.Tactic.Cases", config=fake_repl_base(inst, version="4.15.0"), project=project)
    with pytest.raises(T.VersionMismatch, match=r"reports Lean '4\.15\.0'"):
        session.start()
    session.close()
    assert (root / "lake-env-ran").exists()
