"""The search's fresh checker for a lemma inside a file it must not change: a hole of a user's
project file, or a library lemma re-proved in its own file (``reprove``).

The file the checker compiles is the file's own text up to the lemma, the lemma with the proof,
then the ``End``s of the sections and modules open at it. ``Require`` sentences the search put
after the file's own text are dropped, so a proof that needs a library the file does not load
fails here and the search goes on: the proof kept loads nothing new.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class InContextChecker:
    """Wraps a ``FileChecker`` (``check_file(text, **kwargs)``) as the module docstring says."""

    inner: Any
    prefix: str
    """The file's own text before the lemma, as the search renders it (right-stripped)."""
    closers: str
    """``End X.`` sentences for the scopes open at the lemma ("" at top level)."""

    def check_file(self, text: str, **kwargs: Any) -> Any:
        if text.startswith(self.prefix):
            text = self.prefix + drop_requires(text[len(self.prefix) :])
        return self.inner.check_file(text.rstrip("\n") + "\n" + self.closers, **kwargs)


def drop_requires(text: str) -> str:
    """``text`` without its ``Require`` sentences (comments and strings never match)."""
    from lean_tools.rocq.parser import rocq_sentences
    from lean_tools.source import mask

    masked = mask(text, "rocq")
    for sent in reversed(rocq_sentences(masked)):
        if re.match(r"(?:From\s+\S+\s+)?Require\b", masked[sent.start : sent.end]):
            text = text[: sent.start] + text[sent.end :]
    return text
