"""Loading the adversarial suite under tests/data/soundness/{rocq,lean}/{cheats,honest}/.

Each case file's first line is a comment with ``|``-separated fields:
``kind: description | problem: FILE | static: rule[,rule] | dynamic: stage`` where ``kind`` is
``cheat`` or ``honest``; optional ``style`` (the construct a corpus case is written in) and
``theorem`` (the target, for a problem with several unproved declarations); ``static`` lists
the rules of which at least one must be among the static findings (``none``: the static rules
pass it); ``dynamic`` is the stage at which the proof assistant ALONE (static rules skipped)
rejects it (``accepted``: only the static policy stops it; ``none``: not applicable).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data" / "soundness"
CORPUS = DATA / "corpus"
SUFFIX = {"rocq": ".v", "lean": ".lean"}


@dataclass(frozen=True)
class Case:
    language: str
    kind: str
    path: Path
    problem: Path
    description: str
    static: tuple[str, ...]
    dynamic: str
    style: str = ""
    theorem: str | None = None

    @property
    def id(self) -> str:
        return f"{self.language}/{self.path.stem}"

    def texts(self) -> tuple[str, str]:
        return self.problem.read_text(encoding="utf-8"), self.path.read_text(encoding="utf-8")


def _meta(first_line: str) -> dict[str, str]:
    line = re.sub(r"^\s*(?:\(\*|--)\s*", "", first_line)
    line = re.sub(r"\s*\*\)\s*$", "", line)
    parts = [p.strip() for p in line.split("|")]
    out = {"head": parts[0]}
    for p in parts[1:]:
        if ":" in p:
            k, v = p.split(":", 1)
            out[k.strip()] = v.strip()
    return out


def load(language: str, kind: str, root: Path = DATA) -> list[Case]:
    folder = root / language / kind
    cases = []
    for f in sorted(folder.glob("*" + SUFFIX[language])):
        m = _meta(f.read_text(encoding="utf-8").splitlines()[0])
        head_kind, _, desc = m["head"].partition(":")
        cases.append(
            Case(
                language=language,
                kind=head_kind.strip(),
                path=f,
                problem=root / language / "problems" / m["problem"],
                description=desc.strip() or m.get("head", ""),
                static=tuple(x.strip() for x in m.get("static", "none").split(",")),
                dynamic=m.get("dynamic", "none"),
                style=m.get("style", ""),
                theorem=m.get("theorem"),
            )
        )
    return cases
