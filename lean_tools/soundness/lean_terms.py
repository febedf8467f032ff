"""Lean source text for values the verdict writes into the programs it compiles: string literals
and ``Name`` terms, built without parsing (no dots or guillemets interpreted)."""

from __future__ import annotations


def lean_string(s: str) -> str:
    """A Lean string literal for ``s`` (``\\\\``, ``\\"``, and ``\\u{..}`` for control characters)."""
    out = []
    for c in s:
        if c in '\\"':
            out.append("\\" + c)
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\u{{{ord(c):x}}}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def lean_name(components: list[str]) -> str:
    """A Lean term of type ``Name`` built with ``Name.mkStr`` (no parsing of dots or «»)."""
    term = "Name.anonymous"
    for c in components:
        term = f"(Name.mkStr {term} {lean_string(c)})"
    return term
