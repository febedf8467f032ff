"""``prover-mcp --root PROJECT``: the ``fill_holes`` tool over stdio, with the project's load path."""

from __future__ import annotations

import subprocess

import anyio
import pytest
from mcp_testlib import mcp_session

pytestmark = pytest.mark.rocq

DEFS = "Definition triple (n : nat) := n + n + n.\n"
HOLES = """\
From P Require Import Defs.
Require Import Lia.
Section S.
Variable k : nat.
Hypothesis Hk : 1 <= k.
Lemma three_le : 3 <= triple k.
Proof.
Admitted.
End S.
Lemma other : 2 + 2 = 4.
Proof.
Admitted.
"""


def _project(tmp_path):
    (tmp_path / "theories").mkdir()
    (tmp_path / "_CoqProject").write_text("-Q theories P\ntheories/Defs.v\ntheories/Holes.v\n")
    (tmp_path / "theories" / "Defs.v").write_text(DEFS)
    (tmp_path / "theories" / "Holes.v").write_text(HOLES)
    subprocess.run(["coqc", "-Q", "theories", "P", "theories/Defs.v"], cwd=tmp_path, check=True)
    return tmp_path


def test_fill_holes_over_mcp_uses_the_project_and_writes_only_when_asked(tmp_path):
    root = _project(tmp_path)

    async def scenario():
        async with mcp_session("--root", str(root)) as s:
            names = {t.name for t in (await s.list_tools()).tools}
            assert "fill_holes" in names
            one = await s.call_tool("fill_holes", {"file": "theories/Holes.v", "holes": ["three_le"], "hole_budget_s": 60})
            assert not one.is_error, one.content
            holes = one.structured_content["holes"]
            assert [(h["name"], h["status"]) for h in holes] == [("three_le", "proved")]
            assert "From P Require Import Defs." in one.structured_content["text"]
            assert (root / "theories" / "Holes.v").read_text() == HOLES  # not written without `write`
            outside = await s.call_tool("fill_holes", {"file": "../x.v"})
            assert outside.is_error
            unknown = await s.call_tool("fill_holes", {"file": "theories/Holes.v", "holes": ["nope"]})
            assert unknown.is_error and "no hole named nope" in unknown.content[0].text
            both = await s.call_tool("fill_holes", {"file": "theories/Holes.v", "hole_budget_s": 60, "write": True})
            assert [h["status"] for h in both.structured_content["holes"]] == ["proved", "proved"]
        assert (root / "theories" / "Holes.v.orig").read_text() == HOLES
        assert "Admitted" not in (root / "theories" / "Holes.v").read_text()

    anyio.run(scenario)


def test_without_a_root_there_is_no_project_tool():
    async def scenario():
        async with mcp_session() as s:
            assert "fill_holes" not in {t.name for t in (await s.list_tools()).tools}

    anyio.run(scenario)
