"""Reading coqtop's ``-emacs`` answers: error and warning messages with their positions in the
code sent, the goals of ``Show.``, and the info messages a tactic printed.

Pure functions over the text read before a block's end marker (``lean_tools.rocq.session``
sends the blocks and finds the markers); nothing here talks to a process.
"""

from __future__ import annotations

import re

from ..types import Message, Pos, Severity

PROMPT = re.compile(r"<prompt>(?P<name>\S*) < (?P<state>\d+) \|.*?</prompt>")
_TOPLEVEL = re.compile(r"Toplevel input, characters (?P<a>\d+)-(?P<b>\d+):\n(?P<quote>(?:>.*\n?)*)")
_SEV = re.compile(r"^(Error|Warning)(?: \(in proof [^)]*\))?:\s?", re.M)
_INFOMSG = re.compile(r"<infomsg>.*?</infomsg>", re.S)
_INFO_NOISE = ("[Loading ML file", "Fetching opaque proofs", "CoqHammer ")
_GOALS_HEAD = re.compile(r"^(\d+) goals?(?: \(ID \d+\))?\s*$", re.M)


def infos(body: str) -> tuple[Message, ...]:
    """The info messages a tactic block printed (``idtac``, ``Info``, CoqHammer's
    reconstruction), without the library-loading notices; and, for a block that printed no
    error or warning, its plain output (the answers of queries such as ``Search``) as one more."""
    out = []
    for m in _INFOMSG.finditer(body):
        text = m.group(0)[len("<infomsg>") : -len("</infomsg>")].strip()
        if text and not text.startswith(_INFO_NOISE):
            out.append(Message(severity=Severity.INFO, text=text))
    if "Toplevel input" not in body and "<warning>" not in body:
        plain = PROMPT.sub("", _INFOMSG.sub("", body))
        # coqtop -emacs reprints the goals after a tactic: that is not output of the block
        head = re.search(r"^(?:\d+ goals?(?: \(ID \d+\))?|No more goals\.?)\s*$", plain, re.M)
        plain = (plain[: head.start()] if head else plain).strip()
        if plain:
            out.append(Message(severity=Severity.INFO, text=plain))
    return tuple(out)


def messages(body: str, code: str) -> list[Message]:
    """The errors and warnings of ``body`` (an answer to ``code``), each placed in ``code`` when coqtop
    quoted its line; an error printed without a location is kept without a position."""
    body = _INFOMSG.sub("", body)
    lines = code.splitlines()
    cursor = 0
    msgs: list[Message] = []
    for m in _TOPLEVEL.finditer(body):
        rest = body[m.end() :].lstrip()
        if rest.startswith("<warning>"):
            close = rest.find("</warning>")
            text = rest[len("<warning>") : close if close >= 0 else None].strip()
        else:
            nxt = PROMPT.search(rest)
            text = rest[: nxt.start()] if nxt else rest
        sev_m = _SEV.match(text)
        sev = Severity.ERROR
        if sev_m:
            sev = Severity.ERROR if sev_m.group(1) == "Error" else Severity.WARNING
            text = text[sev_m.end() :]
        quote = m.group("quote").splitlines()
        qline = quote[0][2:] if quote and quote[0].startswith("> ") else (quote[0][1:] if quote else "")
        pos = end = None
        for idx in range(cursor, len(lines)):
            if lines[idx].rstrip() == qline.rstrip():
                cursor = idx
                a, b = int(m.group("a")), int(m.group("b"))
                enc = lines[idx].encode("utf-8")
                ca = len(enc[:a].decode("utf-8", "ignore"))
                cb = len(enc[:b].decode("utf-8", "ignore"))
                pos, end = Pos(line=idx + 1, column=ca), Pos(line=idx + 1, column=cb)
                break
        msgs.append(Message(severity=sev, text=text.strip(), pos=pos, end_pos=end))
    # Errors without a location (rare): "Error:" at line start outside a Toplevel block.
    if not msgs:
        for m in re.finditer(r"^Error:\s?(.*(?:\n(?!\n|<prompt>).*)*)", body, re.M):
            msgs.append(Message(severity=Severity.ERROR, text=m.group(1).strip()))
    return msgs


def goals(show_body: str) -> tuple[tuple[str, ...], bool]:
    """Goals from ``Show.`` output; second value: a proof is open."""
    text = PROMPT.sub("", _INFOMSG.sub("", show_body)).strip()
    if "This command requires an open proof" in text or "No focused proof" in text:
        return (), False
    if text.startswith("No more goals") or not text:
        return (), True
    if "All the remaining goals are on the shelf" in text or "There are unfocused goals" in text:
        return (text,), True
    head = _GOALS_HEAD.search(text)
    if not head:
        return (text,), True
    # First goal is printed with hypotheses; others as "goal k (ID n) is:\n conclusion".
    parts = re.split(r"\n\s*goal \d+ \(ID \d+\) is:\n", text[head.end() :])
    goals = tuple(p.strip("\n") for p in parts if p.strip())
    return goals, True
