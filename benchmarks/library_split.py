"""Which files of an installed Rocq library are held out of training data.

The development libraries (the standard library and stdpp) serve twice: their proofs are the
training data of the tactic models, and their lemmas are the development sample of the
``reprove`` benchmark. A file is either in training or held out, never both, decided by a
stable hash of ``library/relative path`` so every tool reaches the same answer without a
shared list. The test libraries (every other installed library) never enter training.
"""

from __future__ import annotations

import hashlib

DEVELOPMENT_LIBRARIES = ("stdlib", "stdpp")
"""Libraries whose proofs may be training data; their held-out files give the development sample."""

HELD_OUT_MODULUS = 5
"""One file in five (by hash) is held out of training."""


def is_held_out(library: str, relpath: str) -> bool:
    """True when ``relpath`` (POSIX, relative to the library's root) of ``library`` is held out
    of training data. Stable across machines and runs."""
    digest = hashlib.sha256(f"{library}/{relpath}".encode()).hexdigest()
    return int(digest, 16) % HELD_OUT_MODULUS == 0


def is_development_library(library: str) -> bool:
    """True for the libraries whose (not held-out) proofs may be used for training."""
    return library in DEVELOPMENT_LIBRARIES
