"""The Lean 4 REPL wire format (leanprover-community/repl), in one typed home.

What is covered:
- Requests: ``Command``, ``Tactic``, ``PickleEnv``, ``UnpickleEnv``, ``PickleProofState``,
  ``UnpickleProofState``, ``File`` -- frozen pydantic models, snake_case fields with the
  REPL's camelCase as aliases. ``to_wire()`` gives exactly the bytes to write: one line of
  JSON then ONE blank line. A request that could break the REPL's framing is refused.
- Responses: ``CommandResponse``, ``TacticResponse``, ``ErrorResponse`` and their parts
  (``Message``, ``Sorry``, ``TacticInfo``); ``parse_response(dict)`` picks the type.
  All four recorded versions (v4.9, v4.15, v4.19, v4.33) parse; see tests/data/lean_repl.
- Text drift between versions: sorry warnings (``'sorry'`` / `` `sorry` ``), unknown
  identifiers (``unknown identifier 'x'`` / ``Unknown identifier `x` ``), ``proofStatus``
  strings, ``Goals accomplished!`` info messages (v4.19 only).
- Converters into the backend-neutral records of ``lean_tools.types``.
- ``split_requests`` / ``split_responses``: the REPL's own framing, for replay tools and tests.

What is not covered: the info-tree JSON (kept as raw JSON), anything about processes
(``lean_tools.lean.repl``).

Non-ASCII text is sent as UTF-8, not as ``\\u`` escapes: Lean's JSON parser reads one
``\\uXXXX`` as one character, so an astral character (``𝔽``) sent as a surrogate pair would
reach Lean as two broken characters.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt, model_validator
from pydantic.alias_generators import to_camel

from .. import types as T

# --- requests -------------------------------------------------------------------------------

InfotreeMode = Literal["full", "tactics", "original", "substantive"]

_LEADING_TRIVIA = re.compile(r"\A(?:\s+|--[^\n]*(?:\n|\Z)|/-(?:[^-]|-(?!/))*-/)*")


def starts_with_import(code: str) -> bool:
    """Whether ``code``, after leading whitespace and comments, begins with an ``import``."""
    trivia = _LEADING_TRIVIA.match(code)  # always matches (possibly empty)
    rest = code[trivia.end() :] if trivia else code
    return re.match(r"import\b", rest) is not None


class _Wire(BaseModel):
    model_config = ConfigDict(frozen=True, populate_by_name=True, alias_generator=to_camel, extra="forbid")


class Request(_Wire):
    """Base of the REPL's requests. ``to_wire()`` is the only way they should be written."""

    def to_json_dict(self) -> dict[str, Any]:
        """The JSON object, camelCase keys, unset optional fields left out."""
        return self.model_dump(by_alias=True, exclude_none=True)

    def to_wire(self) -> str:
        """``json.dumps(request) + "\\n\\n"``: one line of JSON, then the one blank line that ends it.

        Raises ``InvalidRequest`` if the text could break the framing (it cannot for
        ``json.dumps`` output, which escapes newlines; the check guards future changes).
        """
        text = json.dumps(self.to_json_dict(), ensure_ascii=False)
        if "\n" in text or "\r" in text or text.startswith(("#", "--")):
            raise T.InvalidRequest(f"request would break the REPL framing: {text[:80]!r}")
        return text + "\n\n"


class _CommandOptions(Request):
    all_tactics: bool | None = None
    """Report every tactic with its goals and proof-state id (``tactics`` in the response)."""
    root_goals: bool | None = None
    """Report the root goal of every declaration as a sorry with a proof-state id."""
    infotree: InfotreeMode | None = None
    """Return the elaboration info tree, filtered as named."""


class Command(_CommandOptions):
    """Elaborate ``cmd`` (Lean source) in environment ``env``, or from scratch when ``env`` is None."""

    cmd: str
    """Lean source text; may hold several commands and newlines."""
    env: NonNegativeInt | None = None
    """Environment to continue from. ``import`` is only allowed without it."""

    @model_validator(mode="after")
    def _imports_need_fresh_env(self) -> Command:
        if self.env is not None and starts_with_import(self.cmd):
            raise ValueError("`import` is only allowed in a command without `env`")
        return self


class File(_CommandOptions):
    """Elaborate the file at ``path`` (relative to the REPL's working directory)."""

    path: str
    """File to read."""
    env: NonNegativeInt | None = None
    """Environment to continue from; None elaborates the file's own header."""


class Tactic(Request):
    """Run ``tactic`` on proof state ``proof_state``; the old state stays valid."""

    tactic: str
    """Tactic text (may be a block with newlines)."""
    proof_state: NonNegativeInt
    """Proof-state id from a sorry, a ``tactics`` entry or an earlier tactic response."""


class PickleEnv(Request):
    """Write environment ``env`` to an ``.olean`` file."""

    pickle_to: str
    """Output path, relative to the REPL's working directory."""
    env: NonNegativeInt
    """Environment to write."""


class UnpickleEnv(Request):
    """Load an environment written by ``PickleEnv``; answers with a new env id."""

    unpickle_env_from: str
    """``.olean`` path written by ``PickleEnv``."""


class PickleProofState(Request):
    """Write proof state ``proof_state`` to an ``.olean`` file."""

    pickle_to: str
    """Output path, relative to the REPL's working directory."""
    proof_state: NonNegativeInt
    """Proof state to write."""


class UnpickleProofState(Request):
    """Load a proof state written by ``PickleProofState``; answers with a new proof-state id."""

    unpickle_proof_state_from: str
    """``.olean`` path written by ``PickleProofState``."""
    env: NonNegativeInt | None = None
    """Environment to load it into (else the one pickled with it)."""


AnyRequest = Command | File | Tactic | PickleEnv | UnpickleEnv | PickleProofState | UnpickleProofState


def parse_request(data: dict[str, Any]) -> AnyRequest:
    """Read a request the way the REPL does: the first type whose required keys are present.

    Order (REPL ``parse``): tactic, pickle env, unpickle env, pickle proof state, unpickle
    proof state, command, file. Unknown keys are ignored, as the REPL ignores them.
    Raises ``InvalidRequest`` when no type matches (the REPL would die on it).
    """
    if not isinstance(data, dict):
        raise T.InvalidRequest(f"a request is a JSON object, got {type(data).__name__}")
    order: list[tuple[type[AnyRequest], tuple[str, ...]]] = [
        (Tactic, ("tactic", "proofState")),
        (PickleEnv, ("pickleTo", "env")),
        (UnpickleEnv, ("unpickleEnvFrom",)),
        (PickleProofState, ("pickleTo", "proofState")),
        (UnpickleProofState, ("unpickleProofStateFrom",)),
        (Command, ("cmd",)),
        (File, ("path",)),
    ]
    for cls, keys in order:
        if all(k in data for k in keys):
            known = {f.alias or n for n, f in cls.model_fields.items()}
            try:
                return cls.model_validate({k: v for k, v in data.items() if k in known})
            except ValueError as e:
                raise T.InvalidRequest(f"bad {cls.__name__} request: {e}") from None
    raise T.InvalidRequest(f"JSON object matches no REPL request type: keys {sorted(data)}")


# --- responses ------------------------------------------------------------------------------


class _Resp(BaseModel):
    model_config = ConfigDict(frozen=True, populate_by_name=True, alias_generator=to_camel, extra="ignore")


class Pos(_Resp):
    line: int
    """1-based line (0 means "no position" in the REPL)."""
    column: int
    """0-based column in Unicode code points."""


class Message(_Resp):
    severity: Literal["info", "information", "warning", "error", "trace"]
    """REPL: info|warning|error. ``lean --json``: information|warning|error."""
    pos: Pos | None = None
    """Start of the message's range."""
    end_pos: Pos | None = None
    """End of the range; null when Lean gave none."""
    data: str
    """The message text."""


class Sorry(_Resp):
    goal: str
    """Pretty-printed goal at the sorry (hypotheses, then ``⊢ target``)."""
    proof_state: int | None = None
    """Proof-state id to continue from with a ``Tactic`` request."""
    pos: Pos | None = None
    """Start of the sorry; absent for sorries produced in tactic mode."""
    end_pos: Pos | None = None
    """End of the sorry."""


class TacticInfo(_Resp):
    """One entry of ``tactics`` (``allTactics: true``)."""

    tactic: str
    """The tactic's source text."""
    goals: str
    """Goals before the tactic, pretty-printed in one string."""
    proof_state: int | None = None
    """Proof state before the tactic."""
    pos: Pos
    """Start of the tactic."""
    end_pos: Pos
    """End of the tactic."""
    used_constants: tuple[str, ...] | None = None
    """Constants the tactic's proof term uses (REPL from ~v4.14; None before)."""


class CommandResponse(_Resp):
    kind: Literal["command"] = Field(default="command", exclude=True)
    env: int
    """New environment id (every command gets one, even one with errors)."""
    messages: tuple[Message, ...] = ()
    """Diagnostics, in order."""
    sorries: tuple[Sorry, ...] = ()
    """Every sorry (and root goal when asked), with proof-state ids."""
    tactics: tuple[TacticInfo, ...] = ()
    """Tactics, when ``allTactics`` was asked."""
    infotree: Any = None
    """Raw info-tree JSON, when asked."""


class TacticResponse(_Resp):
    kind: Literal["tactic"] = Field(default="tactic", exclude=True)
    proof_state: int
    """New proof-state id."""
    goals: tuple[str, ...] = ()
    """Remaining goals. ``[]`` is NOT success on its own: see ``status``."""
    messages: tuple[Message, ...] = ()
    """Diagnostics of the tactic (a failing tactic: an error, often at 0:0)."""
    sorries: tuple[Sorry, ...] = ()
    """Sorries the tactic introduced."""
    traces: tuple[str, ...] = ()
    """Output of ``trace`` calls."""
    proof_status: str | None = None
    """Raw proofStatus (REPL from ~v4.19; None before). Parsed by ``status``."""

    @property
    def status(self) -> T.ProofStatus:
        return parse_proof_status(self.proof_status)


class ErrorResponse(_Resp):
    kind: Literal["error"] = Field(default="error", exclude=True)
    message: str
    """``Unknown environment.``, ``Unknown proof state.``, ``Lean error:\\n...`` and the like."""

    @property
    def unknown_id(self) -> bool:
        """The request named an env / proof state this process does not have."""
        return self.message.strip().lower() in ("unknown environment.", "unknown proof state.")


AnyResponse = CommandResponse | TacticResponse | ErrorResponse


class ProtocolError(ValueError):
    """A response that is not what the REPL sends."""


def parse_response(data: Any) -> AnyResponse:
    """Discriminate a decoded response: error (only ``message``), tactic (``proofState``), command (``env``)."""
    if not isinstance(data, dict):
        raise ProtocolError(f"response is not a JSON object: {str(data)[:80]}")
    try:
        if "proofState" in data and "goals" in data:
            return TacticResponse.model_validate(data)
        if "env" in data:
            return CommandResponse.model_validate(data)
        if "message" in data:
            return ErrorResponse.model_validate(data)
    except ValueError as e:
        raise ProtocolError(f"malformed response: {e}") from None
    raise ProtocolError(f"response matches no known type: keys {sorted(data)}")


def parse_response_text(text: str) -> AnyResponse:
    """Parse one response block (the text between blank lines)."""
    try:
        return parse_response(json.loads(text))
    except json.JSONDecodeError as e:
        raise ProtocolError(f"response is not JSON ({e}): {text[:120]!r}") from None


# --- text drift across versions ---------------------------------------------------------------

_SORRY_WARNING = re.compile(r"declaration uses ['`]sorry['`]")
_UNKNOWN_IDENT = re.compile(r"\b[uU]nknown (identifier|constant) ['`](?P<name>[^'`]+)['`]")


def _text(msg: Message | T.Message | str) -> str:
    if isinstance(msg, str):
        return msg
    return msg.data if isinstance(msg, Message) else msg.text


def is_sorry_warning(msg: Message | T.Message | str) -> bool:
    """``declaration uses 'sorry'`` (<= v4.19) or ``declaration uses `sorry` `` (later)."""
    return _SORRY_WARNING.search(_text(msg)) is not None


def unknown_identifier(msg: Message | T.Message | str) -> str | None:
    """The name in ``unknown identifier 'x'`` / ``Unknown identifier `x` `` (or ``constant``), else None."""
    m = _UNKNOWN_IDENT.search(_text(msg))
    return m.group("name") if m else None


def is_goals_accomplished(msg: Message | T.Message | str) -> bool:
    """The ``Goals accomplished!`` info some versions (v4.19) emit; noise, not a verdict."""
    return _text(msg).strip().rstrip("🎉 ").strip() == "Goals accomplished!"


def parse_proof_status(raw: str | None) -> T.ProofStatus:
    """Map every version's ``proofStatus`` string; None (before ~v4.19) is UNKNOWN.

    Any other ``Incomplete...`` maps to OPEN_GOALS and any ``Error...`` to ERROR, so an
    unforeseen string can never read as success.
    """
    if raw is None:
        return T.ProofStatus.UNKNOWN
    s = raw.strip()
    low = s.lower()
    if s == "Completed":
        return T.ProofStatus.COMPLETED
    if low.startswith("incomplete"):
        if "sorry" in low:
            return T.ProofStatus.CONTAINS_SORRY
        if "metavariable" in low:
            return T.ProofStatus.CONTAINS_METAVARIABLES
        return T.ProofStatus.OPEN_GOALS
    if low.startswith("error"):
        return T.ProofStatus.ERROR
    return T.ProofStatus.UNKNOWN


# --- converters into lean_tools.types ---------------------------------------------------------

_SEVERITY = {
    "info": T.Severity.INFO,
    "information": T.Severity.INFO,
    "trace": T.Severity.INFO,
    "warning": T.Severity.WARNING,
    "error": T.Severity.ERROR,
}


def _pos(p: Pos | None, line_offset: int) -> T.Pos | None:
    if p is None or p.line <= line_offset:
        return None
    return T.Pos(line=p.line - line_offset, column=p.column)


def to_message(m: Message, line_offset: int = 0) -> T.Message:
    """Convert; lines shift back by ``line_offset``; a position inside the offset becomes None."""
    return T.Message(
        severity=_SEVERITY[m.severity], text=m.data, pos=_pos(m.pos, line_offset), end_pos=_pos(m.end_pos, line_offset)
    )


def to_hole(s: Sorry, line_offset: int = 0) -> T.Hole:
    return T.Hole(goal=s.goal, state=s.proof_state, pos=_pos(s.pos, line_offset), end_pos=_pos(s.end_pos, line_offset))


def to_command_outcome(
    resp: CommandResponse | ErrorResponse, *, line_offset: int = 0, wall_seconds: float = 0.0
) -> T.CommandOutcome:
    """A command's outcome. An ``ErrorResponse`` (Lean threw) becomes env -1 with one error message."""
    if isinstance(resp, ErrorResponse):
        return T.CommandOutcome(
            env=-1, messages=(T.Message(severity=T.Severity.ERROR, text=resp.message),), wall_seconds=wall_seconds
        )
    return T.CommandOutcome(
        env=resp.env,
        messages=tuple(to_message(m, line_offset) for m in resp.messages),
        holes=tuple(to_hole(s, line_offset) for s in resp.sorries),
        wall_seconds=wall_seconds,
    )


def to_tactic_outcome(resp: TacticResponse | ErrorResponse, *, wall_seconds: float = 0.0) -> T.TacticOutcome:
    """A tactic's outcome. An ``ErrorResponse`` (e.g. ``Lean error: unknown tactic``) becomes
    state -1 (no new state exists), status ERROR and one error message.

    Tactic-mode positions are relative to the tactic text and are not shifted.
    """
    if isinstance(resp, ErrorResponse):
        return T.TacticOutcome(
            state=-1,
            messages=(T.Message(severity=T.Severity.ERROR, text=resp.message),),
            status=T.ProofStatus.ERROR,
            wall_seconds=wall_seconds,
        )
    return T.TacticOutcome(
        state=resp.proof_state,
        goals=resp.goals,
        messages=tuple(to_message(m) for m in resp.messages),
        holes=tuple(to_hole(s) for s in resp.sorries),
        status=resp.status,
        wall_seconds=wall_seconds,
    )


# --- framing (for replay tools and tests; the live reader is in repl.py) -----------------------


def split_requests(stdin_text: str) -> list[str]:
    """Split a REPL stdin transcript into requests, as the REPL reads them.

    Lines are gathered until a blank line; one request's lines are joined without a
    separator after trimming trailing whitespace; a request starting with ``#`` or ``--``
    is skipped.
    """
    out: list[str] = []
    cur: list[str] = []

    def flush() -> None:
        if cur:
            q = "".join(cur)
            if not q.startswith(("#", "--")):
                out.append(q)
            cur.clear()

    for line in stdin_text.split("\n"):
        if line.strip() == "":
            flush()
        else:
            cur.append(line.rstrip())
    flush()
    return out


def split_responses(stdout_text: str) -> list[dict[str, Any]]:
    """Split REPL stdout into decoded JSON objects (one per blank-line-terminated block)."""
    blocks: list[dict[str, Any]] = []
    cur: list[str] = []
    for line in stdout_text.split("\n"):
        if line.strip() == "":
            if cur:
                blocks.append(json.loads("\n".join(cur)))
                cur = []
        else:
            cur.append(line)
    if cur:
        blocks.append(json.loads("\n".join(cur)))
    return blocks
