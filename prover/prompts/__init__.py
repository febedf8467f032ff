"""Prompt templates, kept as Markdown files next to this module.

``render(name, **values)`` fills ``$name`` placeholders (``string.Template``, so braces in
code need no escaping); a placeholder left without a value raises ``KeyError``.
The per-language words the templates use are ``ProofAssistant.prompt_values``
(``lean_tools.assistant``).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from string import Template

DIR = Path(__file__).resolve().parent


@cache
def template(name: str) -> Template:
    return Template((DIR / f"{name}.md").read_text(encoding="utf-8"))


def render(name: str, **values: object) -> str:
    return template(name).substitute({k: str(v) for k, v in values.items()})

