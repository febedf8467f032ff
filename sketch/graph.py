"""The lemma dependency graph of a sketch (networkx ``DiGraph``, edge user -> used).

A lemma "uses" another when the other's name occurs as a whole word in its statement or
proof. Only lemmas reachable from the theorem are needed; they are proved dependencies
first. A cycle (a lemma using a later one that uses it back) is a sketch error.
"""

from __future__ import annotations

import re

import networkx as nx

from .records import LemmaSpec


def _mentions(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w.']){re.escape(name)}(?![\w'])", text) is not None


def dependency_graph(lemmas: tuple[LemmaSpec, ...], theorem_name: str, main_proof: str) -> nx.DiGraph:
    g = nx.DiGraph()
    g.add_node(theorem_name, kind="theorem")
    for lem in lemmas:
        g.add_node(lem.name, kind="lemma")
    for lem in lemmas:
        text = lem.declaration + "\n" + (lem.proof or "")
        for other in lemmas:
            if other.name != lem.name and _mentions(text, other.name):
                g.add_edge(lem.name, other.name)
    for lem in lemmas:
        if _mentions(main_proof, lem.name):
            g.add_edge(theorem_name, lem.name)
    return g


def needed_lemmas(g: nx.DiGraph, theorem_name: str) -> list[str]:
    """Lemmas the theorem depends on (transitively), dependencies first. Raises ValueError on a cycle."""
    if not nx.is_directed_acyclic_graph(g):
        cycle = nx.find_cycle(g)
        raise ValueError("lemmas depend on each other in a cycle: " + " -> ".join(a for a, _ in cycle))
    reach = nx.descendants(g, theorem_name)
    order = [n for n in reversed(list(nx.topological_sort(g))) if n in reach]
    return order


def edges(g: nx.DiGraph) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((a, b) for a, b in g.edges))
