"""What the prover needs to know about each proof assistant's surface syntax.

Covered: rendering a declaration with a proof or a hole, finding top-level declarations
in LLM output and in problem files (comment-aware, line-start keywords), the library-search
command, code-fence names. Not covered: full parsing (``lean_tools.source`` owns that);
this module only cuts text at sentence / declaration boundaries.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ROCQ_DECL_KW = ("Theorem", "Lemma", "Fact", "Remark", "Corollary", "Proposition", "Example")
LEAN_DECL_KW = ("theorem", "lemma")
_ROCQ_END = re.compile(r"\b(Qed|Admitted|Defined|Abort)\s*\.(?=\s|$)")
_LEAN_TOP = re.compile(
    r"^(?:@\[[^\]]*\]\s*)?(?:private\s+|protected\s+|noncomputable\s+)*"
    r"(theorem|lemma|def|abbrev|example|instance|structure|inductive|class|namespace|end|section|open|variable|#\w+)\b",
    re.MULTILINE,
)


def mask_comments(text: str, language: str) -> str:
    """Same-length copy of ``text`` with comments and strings blanked (``lean_tools.source.mask``),
    so offsets found in the mask are offsets in the text. Unterminated comments blank to the end."""
    from lean_tools.source import ParseError, mask

    try:
        return mask(text, language)  # type: ignore[arg-type]
    except ParseError:
        return mask(text + ("\n-/" if language == "lean" else "\n*)"), language)[: len(text)]  # type: ignore[arg-type]


@dataclass(frozen=True)
class Decl:
    """A top-level theorem-like declaration found in text: ``text[start:end]`` is all of it,
    ``declaration`` the part before the proof, ``proof`` the proof body (may be empty)."""

    keyword: str
    name: str
    start: int
    proof_start: int
    end: int
    declaration: str
    proof: str


@dataclass(frozen=True)
class LangSpec:
    language: str
    fence: tuple[str, ...]
    hole: str

    # --- rendering ---------------------------------------------------------------------
    def render(self, declaration: str, proof: str) -> str:
        """A declaration with a proof body."""
        proof = proof.strip("\n")
        if self.language == "rocq":
            body = proof.strip()
            if re.search(r"^\s*Proof\b", body):
                body = re.sub(r"^\s*Proof\s*\.", "", body, count=1).strip("\n")
            body = _ROCQ_END.sub("", body).rstrip() if re.search(r"(Qed|Defined)\s*\.\s*$", body) else body
            return f"{declaration.rstrip()}\nProof.\n{body}\nQed.\n"
        body = proof
        body = re.sub(r"^\s*:=\s*", "", body)
        body = re.sub(r"^\s*by\b", "", body).strip("\n")
        lines = body.splitlines() or ["sorry"]
        indent = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
        body = "\n".join("  " + line[indent:] if line.strip() else "" for line in lines)
        return f"{declaration.rstrip()} := by\n{body}\n"

    def render_hole(self, declaration: str) -> str:
        if self.language == "rocq":
            return f"{declaration.rstrip()}\nAdmitted.\n"
        return f"{declaration.rstrip()} := by\n  sorry\n"

    def has_hole(self, proof: str) -> bool:
        masked = mask_comments(proof, self.language)
        if self.language == "rocq":
            return bool(re.search(r"\b(admit|Admitted|Abort|give_up)\b", masked)) or not masked.strip()
        return bool(re.search(r"\b(sorry|admit)\b", masked)) or not masked.strip()

    # --- finding declarations ---------------------------------------------------------
    def declarations(self, text: str) -> list[Decl]:
        """Top-level theorem/lemma declarations in ``text``, in order."""
        return _rocq_decls(text) if self.language == "rocq" else _lean_decls(text)

    def extract_code(self, reply: str) -> str | None:
        """The last fenced code block in ``reply`` whose tag is this language's (or untagged)."""
        blocks = re.findall(r"```([\w+-]*)[^\n]*\n(.*?)```", reply, re.DOTALL)
        good = [b for tag, b in blocks if tag.lower() in self.fence or tag == ""]
        if good:
            return good[-1]
        open_block = re.search(r"```([\w+-]*)[^\n]*\n(.*)$", reply, re.DOTALL)
        if open_block and open_block.group(1).lower() in self.fence + ("",):
            return open_block.group(2)
        return None


ROCQ = LangSpec("rocq", ("coq", "rocq", "v"), "admit")
LEAN = LangSpec("lean", ("lean", "lean4"), "sorry")


def spec(language: str) -> LangSpec:
    if language == "rocq":
        return ROCQ
    if language == "lean":
        return LEAN
    raise ValueError(f"unknown language {language!r} (expected 'lean' or 'rocq')")


def _sentence_end(masked: str, start: int) -> int:
    """Index just past the Rocq sentence starting at ``start`` (a '.' followed by space/EOF)."""
    for m in re.finditer(r"\.(?=\s|$)", masked[start:]):
        k = start + m.start()
        if k > start and masked[k - 1] == ".":  # '..' notation
            continue
        return k + 1
    return len(masked)


def _rocq_decls(text: str) -> list[Decl]:
    masked = mask_comments(text, "rocq")
    kw = "|".join(ROCQ_DECL_KW)
    out: list[Decl] = []
    pos = 0
    for m in re.finditer(rf"(?m)^[ \t]*(?:(?:Local|Global|Program)\s+)*({kw})\s+([\w']+)", masked):
        if m.start() < pos:
            continue
        start = m.start() + (len(m.group(0)) - len(m.group(0).lstrip()))
        decl_end = _sentence_end(masked, m.end())
        e = _ROCQ_END.search(masked, decl_end)
        nxt = re.search(rf"(?m)^[ \t]*({kw})\s+[\w']+", masked[decl_end:])
        if e and (nxt is None or decl_end + nxt.start() > e.start()):
            end = e.end()
            proof = text[decl_end : e.start()]
            if e.group(1) in ("Admitted", "Abort"):
                proof = proof + "\n" + e.group(1) + "."
        else:
            end = decl_end + nxt.start() if nxt else len(text)
            proof = text[decl_end:end]
        proof = re.sub(r"^\s*Proof\s*\.", "", proof, count=1)
        out.append(Decl(m.group(1), m.group(2), start, decl_end, end, text[start:decl_end], proof.strip("\n")))
        pos = end
    return out


def _top_level_assign(masked: str, start: int, stop: int) -> int:
    depth = 0
    i = start
    while i < stop:
        c = masked[i]
        if c in "([{⟨":
            depth += 1
        elif c in ")]}⟩":
            depth -= 1
        elif c == ":" and masked[i : i + 2] == ":=" and depth <= 0:
            return i
        i += 1
    return -1


def _lean_decls(text: str) -> list[Decl]:
    masked = mask_comments(text, "lean")
    tops = list(_LEAN_TOP.finditer(masked))
    out: list[Decl] = []
    for idx, m in enumerate(tops):
        if m.group(1) not in LEAN_DECL_KW:
            continue
        name_m = re.match(r"\s*([^\s:({\[]+)", masked[m.end() :])
        if not name_m:
            continue
        stop = tops[idx + 1].start() if idx + 1 < len(tops) else len(text)
        assign = _top_level_assign(masked, m.end(), stop)
        if assign < 0:
            continue
        declaration = text[m.start() : assign].rstrip()
        proof = text[assign + 2 : stop]
        proof = re.sub(r"^\s*by\b", "", proof, count=1).strip("\n")
        end = len(text[:stop].rstrip())
        out.append(Decl(m.group(1), name_m.group(1), m.start(), assign, end, declaration, proof.rstrip()))
    return out
