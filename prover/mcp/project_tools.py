"""The project tool of ``prover-mcp --root PROJECT``: fill the holes of a Rocq file under the root.

``fill_holes(file, holes=None, hole_budget_s=None, write=False)`` runs what ``prove FILE.v`` runs
on a project file (``prover.fill.fill_file``): the file's project is found from its folder
(``_CoqProject`` or dune, plus the config's ``project.flags``), every chosen hole is proved in
file order, and the result is judged in context. The answer is the ``FillReport`` record
(``holes``: qualified name, status ``proved``/``not_proved``/``proved_assuming``, proof, who
closed it, seconds, checker CPU; ``verdict``; ``text``, the filled file). With ``write`` the
filled file replaces the original, which is kept as ``FILE.v.orig``.

Served only with ``--root``: a path outside the root, a file that is not ``.v``, or a file that
does not compile as it is are tool errors. One fill runs at a time (the load path of the active
project is process-wide).
"""

from __future__ import annotations

import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import anyio
from pydantic import Field

from prover.records import FillReport
from prover.tools import ToolInputError

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

ToolHost = Any
"""``prover.mcp.server.ToolHost`` (not imported: the server imports this module)."""

PROJECT_TOOLS = ("fill_holes",)
_ONE_FILL = threading.Lock()


def register_project(mcp: MCPServer, host: ToolHost, fail: Callable[[BaseException], Exception]) -> None:
    """``fill_holes`` on ``mcp`` when ``host`` has a root; nothing otherwise. ``fail`` turns an
    exception into the server's one-line tool error."""
    if host.root is None:
        return

    @mcp.tool(name="fill_holes")
    async def fill_holes(
        file: Annotated[str, Field(description="path of a .v file, relative to the server's root")],
        holes: Annotated[list[str] | None, Field(description="names of the holes to fill (short or qualified); default: all")] = None,
        hole_budget_s: Annotated[float | None, Field(description="seconds for one hole (capped by the server's max_call_s)")] = None,
        write: Annotated[bool, Field(description="write the filled file over the original (kept as FILE.v.orig)")] = False,
    ) -> FillReport:
        """Fill the holes (Admitted proofs) of a Rocq file in its own project, in file order: each hole's proof is written into its body only, and the whole file is judged in context (fresh compile with the project's flags, Print Assumptions per lemma). Long-running."""  # noqa: E501 - the tool description an MCP client shows, one line
        try:
            work = lambda: fill_under_root(host, file, holes or [], hole_budget_s, write)  # noqa: E731
            return await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
        except Exception as e:  # noqa: BLE001 - every failure becomes a one-line tool error
            raise fail(e) from None


def fill_under_root(host: ToolHost, file: str, holes: list[str], hole_budget_s: float | None, write: bool) -> FillReport:
    """The tool's work, synchronously (tests call it directly)."""
    from lean_tools.rocq.project import ProjectError, find_project
    from prover.commands.prove_holes import check_compiles
    from prover.errors import BadProblem
    from prover.fill import FillRequest, fill_file

    path = _under_root(host, file)
    text = path.read_text(encoding="utf-8")
    try:
        project = find_project(path, host.config.project.flags, base=host.root)
    except ProjectError as e:
        raise ToolInputError(str(e)) from None
    bad = check_compiles(file, text, project)
    if bad:
        raise ToolInputError(bad)
    from lean_tools.rocq.holes import find_holes
    from prover.fill import choose

    per_hole = host.budget_s(hole_budget_s, host.config.project.hole_timeout_s or host.default_call_s)
    try:
        n = len(choose(find_holes(text), holes))
    except BadProblem as e:
        raise ToolInputError(str(e)) from None
    cfg = host.config.model_copy(update={"budget": host.config.budget.model_copy(update={"wall_s": per_hole * max(n, 1) + 60.0})})
    req = FillRequest(path=file, text=text, project=project, config=cfg, theorems=tuple(holes), hole_timeout_s=per_hole)
    with _ONE_FILL:
        try:
            report = fill_file(req)
        except BadProblem as e:
            raise ToolInputError(str(e)) from None
    if write and report.text != text:
        orig = path.with_name(path.name + ".orig")
        if not orig.exists():
            shutil.copyfile(path, orig)
        path.write_text(report.text, encoding="utf-8")
    return report


def _under_root(host: ToolHost, raw: str) -> Path:
    if host.root is None:
        raise ToolInputError("fill_holes needs a server started with --root PROJECT")
    path = (host.root / raw).resolve()
    if not path.is_relative_to(host.root):
        raise ToolInputError(f"{raw}: outside the server's root {host.root}")
    if path.suffix != ".v":
        raise ToolInputError(f"{raw}: fill_holes takes a Rocq .v file")
    if not path.is_file():
        raise ToolInputError(f"{raw}: no such file under {host.root}")
    return path
