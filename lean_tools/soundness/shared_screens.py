"""What the Lean and Rocq screens share: the rules that hold for both and the helpers the
per-assistant rules (``lean_screens``, ``rocq_screens``) are written with.

Both: ``invisible`` (zero-width / bidi control characters), ``lookalike`` (a banned word
spelled with Cyrillic/Greek/full-width look-alike letters: screens run again on a skeleton).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from .verdict import Finding

_INVISIBLE = re.compile("[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u00ad\u180e]")
_HOMOGLYPHS = str.maketrans(
    "аеорсухіјѕԁһӏɡոмтквнАВЕКМНОРСТХορνικΑΒΕΖΗΙΚΜΝΟΡΤΧΥı",
    "aeopcyxijsdhlgnmtkbhABEKMHOPCTXopvikABEZHIKMNOPTXYi",
)


def skeleton(text: str) -> str:
    """NFKC-normalised text with common Cyrillic/Greek look-alikes mapped to Latin (same length not kept)."""
    return unicodedata.normalize("NFKC", text).translate(_HOMOGLYPHS)


def line_at(text: str, i: int, offset: int) -> int:
    """The 1-based line of offset ``i`` in ``text``, plus ``offset`` (where ``text`` starts)."""
    return text.count("\n", 0, i) + 1 + offset


def each_match(pattern: re.Pattern[str], text: str, rule: str, message: Callable[[str], str], offset: int) -> list[Finding]:
    """A finding ``rule`` per match of ``pattern`` in ``text``; ``message`` maps the matched text."""
    return [Finding(rule=rule, message=message(m.group(0)), line=line_at(text, m.start(), offset)) for m in pattern.finditer(text)]


def invisible(text: str, offset: int) -> list[Finding]:
    """Defence ``invisible``: zero-width and bidi control characters (they hide what text says)."""
    return each_match(_INVISIBLE, text, "invisible", lambda g: f"invisible character U+{ord(g):04X}", offset)


def words(pattern_words: list[str], left: str) -> re.Pattern[str]:
    """One regex matching any of ``pattern_words`` as a whole word (``left``: what may not precede)."""
    alt = "|".join(sorted(map(re.escape, pattern_words), key=len, reverse=True))
    return re.compile(rf"(?<!{left})(?:{alt})(?![\w'!?])")


Rules = Callable[[str, str, int], list[Finding]]
"""A rule set run on (masked text, role, line offset)."""


def lookalikes(masked: str, rules: Rules, role: str, line_offset: int) -> list[Finding]:
    """Defence: look-alike characters. Re-run ``rules`` on the ASCII skeleton of the text, so a
    banned word spelled with Unicode look-alikes (Cyrillic ``а``, fullwidth letters) is still found."""
    sk = skeleton(masked)
    if sk == masked:
        return []
    return [
        Finding(rule="lookalike", message=f"look-alike spelling: {f.message}", line=f.line, snippet=f.snippet)
        for f in rules(sk, role, line_offset)
    ]
