"""Prompt templates, kept as Markdown files next to this module.

``render(name, **values)`` fills ``$name`` placeholders (``string.Template``, so braces in
code need no escaping); a placeholder left without a value raises ``KeyError``.
``language_values(language)`` gives the per-language words the templates use.
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


def language_values(language: str) -> dict[str, str]:
    if language == "rocq":
        return {
            "language": "Rocq (Coq 8.16)",
            "fence": "coq",
            "lemma_keyword": "Lemma",
            "hole_example": "`Admitted.` right after the statement",
            "proof_shape": "of the tactic script between `Proof.` and `Qed.` (without those two words)",
            "forbidden": "`admit`, `Admitted`, `Axiom`, `Abort` or changes to the statement",
        }
    return {
        "language": "Lean 4 with Mathlib",
        "fence": "lean",
        "lemma_keyword": "lemma",
        "hole_example": "`:= by sorry`",
        "proof_shape": "after `:= by` (the tactic block, without `:= by`)",
        "forbidden": "`sorry`, `admit`, `axiom`, `native_decide` or changes to the statement",
    }
