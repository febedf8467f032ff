"""The layering of docs/architecture.md, as the code has it.

Covered: the static import graph of the project packages, read with ``ast`` from the source
files (no import runs): every ``import``/``from ... import`` is an edge, function-local ones
included; only imports under ``if TYPE_CHECKING:`` are left out (they never run). On that
graph: no cycle between modules, no cycle between packages, the packages stack in the order
of ``LAYERS`` (each imports only packages below it), ``sketch`` imports only the records and
the language layer, ``lean_tools`` nothing of the project above it. And, at run time, the call
path of ``prove FILE`` from the CLI entry to the soundness verdict touches at most
``MAX_PATH_MODULES`` project modules.

Not covered: imports done by name at run time (``importlib.import_module``, the benchmark
runner's ``"module:function"`` references); they are configuration, not structure.
"""

from __future__ import annotations

import ast
import shutil
import sys
import threading
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[1]

#: top-level package -> its folder, lowest layer first (each may import only those before it)
LAYERS: dict[str, str] = {
    "lean_tools": "lean_tools",
    "sketch": "sketch",
    "prover": "prover",
    "benchmarks": "benchmarks",
    "rl": "rl",
    "prover_tasks": "environments/prover_tasks/prover_tasks",
}
#: what ``sketch`` may import besides itself: the record base and the language layer
SKETCH_MAY_IMPORT = ("lean_tools.types", "lean_tools.assistant")
MAX_PATH_MODULES = 8


def project_modules() -> dict[str, Path]:
    """Dotted module name -> source file, for every ``.py`` file of the project packages."""
    mods: dict[str, Path] = {}
    for pkg, folder in LAYERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            mods[".".join([pkg, *parts])] = path
    return mods


def _type_checking_only(tree: ast.Module) -> set[int]:
    """ids of the import nodes that sit under ``if TYPE_CHECKING:``."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else test.attr if isinstance(test, ast.Attribute) else ""
            if name == "TYPE_CHECKING":
                for inner in node.body:
                    skip.update(id(n) for n in ast.walk(inner))
    return skip


def _targets(module: str, is_package: bool, node: ast.Import | ast.ImportFrom, mods: dict[str, Path]) -> set[str]:
    """The project modules an import statement loads (the deepest existing module of each name)."""
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        if node.level:
            base_parts = module.split(".") if is_package else module.split(".")[:-1]
            base_parts = base_parts[: len(base_parts) - (node.level - 1)]
            base = ".".join([*base_parts, node.module] if node.module else base_parts)
        else:
            base = node.module or ""
        # ``from pkg import sub`` loads the submodule when there is one, else a name in ``pkg``
        names = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
    out: set[str] = set()
    for name in names:
        found = name
        while found and found not in mods:
            found = found.rpartition(".")[0]
        if found and found != module:
            out.add(found)
    return out


def import_graph() -> nx.DiGraph:
    """Module -> module it imports, over the project packages."""
    mods = project_modules()
    g = nx.DiGraph()
    g.add_nodes_from(mods)
    for module, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        skip = _type_checking_only(tree)
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in skip:
                for target in _targets(module, path.name == "__init__.py", node, mods):
                    g.add_edge(module, target)
    return g


def package_graph(g: nx.DiGraph) -> nx.DiGraph:
    pg = nx.DiGraph()
    pg.add_nodes_from(LAYERS)
    for a, b in g.edges:
        pa, pb = a.split(".")[0], b.split(".")[0]
        if pa != pb:
            pg.add_edge(pa, pb, example=f"{a} -> {b}")
    return pg


def static_closure(g: nx.DiGraph, module: str) -> set[str]:
    """Every project module importing ``module`` can load (parent packages included)."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        parts = m.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)) if ".".join(parts[:i]) in g)
        todo.extend(g.successors(m))
    return seen


@pytest.fixture(scope="module")
def graph() -> nx.DiGraph:
    return import_graph()


def test_the_graph_reads_every_kind_of_import(graph):
    # a relative import, a function-local import and a submodule imported by ``from pkg import sub``
    assert graph.number_of_nodes() > 100
    assert graph.has_edge("prover.commands.prove", "prover.api")  # function-local, relative
    assert graph.has_edge("prover.agent", "prover.tools")  # ``from . import prompts, tools``
    assert graph.has_edge("lean_tools.soundness", "lean_tools.soundness.verify")


def test_no_cycle_between_modules(graph):
    cycles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert cycles == [], f"import cycles between modules: {cycles}"


def test_no_cycle_between_packages(graph):
    pg = package_graph(graph)
    cycles = list(nx.simple_cycles(pg))
    examples = {c: [pg.edges[a, b]["example"] for a, b in zip(c, c[1:] + c[:1], strict=True)] for c in map(tuple, cycles)}
    assert cycles == [], f"import cycles between packages: {examples}"


def test_packages_stack_in_layer_order(graph):
    order = list(LAYERS)
    upward = [
        pg_edge["example"]
        for a, b, pg_edge in package_graph(graph).edges(data=True)
        if order.index(b) > order.index(a)
    ]
    assert upward == [], f"imports of a higher layer (order {' < '.join(order)}): {upward}"


def test_sketch_imports_only_records_and_the_language_layer(graph):
    bad = sorted(
        f"{a} -> {b}"
        for a, b in graph.edges
        if a.split(".")[0] == "sketch" and b.split(".")[0] != "sketch" and b not in SKETCH_MAY_IMPORT
    )
    assert bad == []


def test_lean_tools_imports_nothing_above_it(graph):
    bad = sorted(f"{a} -> {b}" for a, b in graph.edges if a.split(".")[0] == "lean_tools" and b.split(".")[0] != "lean_tools")
    assert bad == []


@pytest.mark.rocq
def test_prove_call_path_to_the_verdict(tmp_path, capsys):
    """``prove FILE`` in process on a bundled example (built-in search, no model): the Python
    stack when ``lean_tools.soundness.verify.verify`` is entered holds at most
    ``MAX_PATH_MODULES`` distinct project modules, starting at ``prover.commands.prove``."""
    import lean_tools.soundness.verify  # noqa: F401  (the package exports a function of the same name)
    from prover.commands.prove import main

    target = sys.modules["lean_tools.soundness.verify"].verify.__code__
    packages = tuple(f"{p}." for p in LAYERS) + tuple(LAYERS)
    stacks: list[list[tuple[str, str]]] = []

    def profile(frame, event, arg):
        if event == "call" and frame.f_code is target:
            stack = []
            f = frame
            while f is not None:
                mod = f.f_globals.get("__name__", "")
                if mod.startswith(packages):
                    stack.append((mod, f.f_code.co_name))
                f = f.f_back
            stacks.append(stack[::-1])

    problem = tmp_path / "double_le.v"
    shutil.copy(ROOT / "examples" / "rocq" / "double_le.v", problem)
    sys.setprofile(profile)
    threading.setprofile(profile)
    try:
        code = main([str(problem), "--quiet", "--no-cache", "--timeout", "300"])
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
    assert code == 0, capsys.readouterr().err
    assert stacks, "the soundness verdict was never called"
    for stack in stacks:
        modules = list(dict.fromkeys(m for m, _ in stack))
        assert stack[0] == ("prover.commands.prove", "main")
        assert modules[-1] == "lean_tools.soundness.verify"
        assert len(modules) <= MAX_PATH_MODULES, " -> ".join(f"{m}.{fn}" for m, fn in stack)
