"""Golden tests of the REPL wire format against recorded traffic of four Lean versions.

Data: tests/data/lean_repl (leanprover-community/repl test files, see its README).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from lean_tools import types as T
from lean_tools.lean import protocol as P

DATA = Path(__file__).resolve().parents[1] / "data" / "lean_repl"
VERSION_DIRS = {
    "v4.33": DATA / "test",
    "v4.19": DATA / "legacy" / "v4.19.0" / "test",
    "v4.15": DATA / "legacy" / "v4.15.0" / "test",
    "v4.9": DATA / "legacy" / "v4.9.0" / "test",
}
OUT_FILES = sorted(DATA.rglob("*.expected.out"))
IN_FILES = sorted(DATA.rglob("*.in"))


def _id(p: Path) -> str:
    return str(p.relative_to(DATA))


def _in_for(out: Path) -> Path:
    return out.with_name(out.name[: -len(".expected.out")] + ".in")


def test_fixture_set_is_complete():
    # The README's copy check: 705 response blocks over the four versions.
    assert all(d.is_dir() for d in VERSION_DIRS.values())
    assert sum(len(P.split_responses(f.read_text(encoding="utf-8"))) for f in OUT_FILES) == 705
    assert len(OUT_FILES) > 150 and len(IN_FILES) > len(OUT_FILES)


@pytest.mark.parametrize("out", OUT_FILES, ids=_id)
def test_every_response_block_parses(out: Path):
    text = out.read_text(encoding="utf-8")
    blocks = P.split_responses(text)
    requests = P.split_requests(_in_for(out).read_text(encoding="utf-8"))
    assert len(blocks) == len(requests), "one response per request"
    for raw, req_text in zip(blocks, requests):
        resp = P.parse_response(raw)
        req = P.parse_request(json.loads(req_text))
        # Every key the REPL sent is modelled (nothing silently dropped).
        fields = {f.alias for f in type(resp).model_fields.values() if not f.exclude}
        assert set(raw) <= fields, set(raw) - fields
        if isinstance(resp, P.TacticResponse):
            assert isinstance(req, (P.Tactic, P.PickleProofState, P.UnpickleProofState))
            outcome = P.to_tactic_outcome(resp)
            assert outcome.state == raw["proofState"] and list(outcome.goals) == raw["goals"]
            assert len(outcome.messages) == len(raw.get("messages", []))
            assert [h.state for h in outcome.holes] == [s.get("proofState") for s in raw.get("sorries", [])]
        elif isinstance(resp, P.CommandResponse):
            assert isinstance(req, (P.Command, P.File, P.PickleEnv, P.UnpickleEnv))
            outcome = P.to_command_outcome(resp)
            assert outcome.env == raw["env"]
            assert [m.text for m in outcome.messages] == [m["data"] for m in raw.get("messages", [])]
            assert [h.goal for h in outcome.holes] == [s["goal"] for s in raw.get("sorries", [])]
            for m, r in zip(outcome.messages, raw.get("messages", [])):
                assert m.severity.value == {"info": "info", "warning": "warning", "error": "error"}[r["severity"]]
                assert m.pos == (T.Pos(**r["pos"]) if r["pos"]["line"] > 0 else None)
            for t, r in zip(resp.tactics, raw.get("tactics", [])):
                assert t.used_constants == (tuple(r["usedConstants"]) if "usedConstants" in r else None)
        else:
            assert set(raw) == {"message"}
            outcome = P.to_command_outcome(resp)
        # Outcomes are JSONL-serialisable records.
        assert type(outcome).from_json(outcome.to_json()) == outcome


@pytest.mark.parametrize("src", IN_FILES, ids=_id)
def test_every_request_round_trips(src: Path):
    for text in P.split_requests(src.read_text(encoding="utf-8")):
        raw = json.loads(text)
        req = P.parse_request(raw)
        wire = req.to_wire()
        assert wire.endswith("\n\n") and "\n" not in wire[:-2]
        assert json.loads(wire) == raw
        assert P.parse_request(json.loads(wire)) == req


def test_version_drift_table():
    """The README's drift table, checked against the data itself."""

    def all_blocks(version: str):
        for f in VERSION_DIRS[version].rglob("*.expected.out"):
            if "legacy" in f.parts and version == "v4.33":
                continue
            yield from P.split_responses(f.read_text(encoding="utf-8"))

    def messages(version: str):
        for b in all_blocks(version):
            yield from b.get("messages", [])

    for v in VERSION_DIRS:
        sorry_warnings = [m["data"] for m in messages(v) if P.is_sorry_warning(m["data"])]
        assert sorry_warnings, v
        assert all(
            P.is_sorry_warning(P.Message.model_validate(m))
            for m in messages(v)
            if "sorry" in m["data"] and "declaration uses" in m["data"]
        )
        status = [b["proofStatus"] for b in all_blocks(v) if "proofStatus" in b]
        used = [t for b in all_blocks(v) for t in b.get("tactics", []) if "usedConstants" in t]
        assert bool(status) == (v in ("v4.19", "v4.33")), v
        assert bool(used) == (v != "v4.9"), v
    assert {P.unknown_identifier(m["data"]) for m in messages("v4.9") if P.unknown_identifier(m["data"])} >= {"g"}
    assert {P.unknown_identifier(m["data"]) for m in messages("v4.33") if P.unknown_identifier(m["data"])} >= {"g"}
    assert any(P.is_goals_accomplished(m["data"]) for m in messages("v4.19"))
    assert not any(P.is_goals_accomplished(m["data"]) for m in messages("v4.33"))


@pytest.mark.parametrize(
    "text,name",
    [
        ("unknown identifier 'my_fake_premise'", "my_fake_premise"),
        ("Unknown identifier `bysorry`", "bysorry"),
        ("Unknown constant `Nat.foo`", "Nat.foo"),
        ("unknown constant 'Nat.foo'", "Nat.foo"),
        ("unsolved goals\n⊢ 1 = 1", None),
    ],
)
def test_unknown_identifier_spellings(text, name):
    assert P.unknown_identifier(text) == name


def test_sorry_warning_spellings():
    assert P.is_sorry_warning("declaration uses 'sorry'")
    assert P.is_sorry_warning("declaration uses `sorry`")
    assert not P.is_sorry_warning("declaration uses sorryAx")
    msg = T.Message(severity=T.Severity.WARNING, text="declaration uses `sorry`")
    assert P.is_sorry_warning(msg)


@pytest.mark.parametrize(
    "raw,status",
    [
        (None, T.ProofStatus.UNKNOWN),
        ("Completed", T.ProofStatus.COMPLETED),
        ("Incomplete: open goals remain", T.ProofStatus.OPEN_GOALS),
        ("Incomplete: contains sorry", T.ProofStatus.CONTAINS_SORRY),
        ("Incomplete: contains metavariable(s)", T.ProofStatus.CONTAINS_METAVARIABLES),
        ("Error: kernel type check failed: (kernel) declaration has free variables", T.ProofStatus.ERROR),
        ("Error: Goal not assigned", T.ProofStatus.ERROR),
        ("Incomplete", T.ProofStatus.OPEN_GOALS),
        ("something new", T.ProofStatus.UNKNOWN),
    ],
)
def test_proof_status_strings(raw, status):
    assert P.parse_proof_status(raw) is status


def test_every_recorded_proof_status_is_understood():
    seen = set()
    for f in OUT_FILES:
        for b in P.split_responses(f.read_text(encoding="utf-8")):
            if "proofStatus" in b:
                seen.add(b["proofStatus"])
                assert P.parse_proof_status(b["proofStatus"]) is not T.ProofStatus.UNKNOWN, b["proofStatus"]
    assert {"Completed", "Incomplete: open goals remain", "Incomplete: contains sorry"} <= seen


def test_failing_tactic_with_empty_goals_is_not_success():
    # The trap of the protocol notes: goals == [] with an error and "contains sorry".
    raw = None
    for f in (VERSION_DIRS["v4.33"]).glob("*.expected.out"):
        for b in P.split_responses(f.read_text(encoding="utf-8")):
            if b.get("goals") == [] and b.get("proofStatus") == "Incomplete: contains sorry" and b.get("messages"):
                raw = b
    assert raw is not None
    outcome = P.to_tactic_outcome(P.parse_response(raw))
    assert outcome.goals == () and not outcome.proved and not outcome.ok


def test_error_responses_become_outcomes():
    lean_err = P.parse_response({"message": "Lean error:\n<input>:1:1: unknown tactic"})
    assert isinstance(lean_err, P.ErrorResponse) and not lean_err.unknown_id
    t = P.to_tactic_outcome(lean_err)
    assert t.state == -1 and t.status is T.ProofStatus.ERROR and not t.ok and not t.proved
    c = P.to_command_outcome(lean_err)
    assert c.env == -1 and not c.ok
    for text in ("Unknown environment.", "Unknown proof state.", "Unknown proof State."):
        assert P.ErrorResponse(message=text).unknown_id


def test_parse_response_rejects_garbage():
    for bad in ([], {"foo": 1}, {"env": "x"}, "text"):
        with pytest.raises(P.ProtocolError):
            P.parse_response(bad)
    with pytest.raises(P.ProtocolError):
        P.parse_response_text('{"env": 0')


def test_request_wire_format():
    c = P.Command(cmd="theorem t : 𝔽 := by\n\n  sorry", env=0, all_tactics=True)
    wire = c.to_wire()
    assert wire.endswith("}\n\n") and wire.count("\n") == 2
    assert "𝔽" in wire  # sent as UTF-8, not as a surrogate pair
    assert json.loads(wire) == {"cmd": "theorem t : 𝔽 := by\n\n  sorry", "env": 0, "allTactics": True}
    assert P.Tactic(tactic="simp", proof_state=3).to_json_dict() == {"tactic": "simp", "proofState": 3}
    assert P.PickleEnv(pickle_to="a.olean", env=1).to_json_dict() == {"pickleTo": "a.olean", "env": 1}
    assert P.UnpickleProofState(unpickle_proof_state_from="a.olean").to_json_dict() == {
        "unpickleProofStateFrom": "a.olean"
    }


def test_request_validation():
    with pytest.raises(ValidationError, match="import"):
        P.Command(cmd="import Mathlib\ntheorem x : True := trivial", env=0)
    with pytest.raises(ValidationError, match="import"):
        P.Command(cmd="-- header\n/- doc -/\n  import Mathlib", env=3)
    P.Command(cmd="import Mathlib")  # allowed without env
    P.Command(cmd="theorem importance : True := trivial", env=0)  # not an import
    with pytest.raises(ValidationError):
        P.Tactic(tactic="simp", proof_state=-1)
    with pytest.raises(ValidationError):
        P.Command(cmd="x", env=0, infotree="everything")
    with pytest.raises(ValidationError):
        P.Command(cmd="x", bogus=1)
    with pytest.raises(T.InvalidRequest):
        P.parse_request({"foo": 1})
    with pytest.raises(T.InvalidRequest):
        P.parse_request({"cmd": 3})
    with pytest.raises(T.InvalidRequest):
        P.parse_request([1])


def test_parse_request_follows_repl_order():
    # {"pickleTo", "env", "cmd"}: the REPL tries pickle-env before command.
    assert isinstance(P.parse_request({"pickleTo": "x.olean", "env": 0, "cmd": "def x := 1"}), P.PickleEnv)
    assert isinstance(P.parse_request({"tactic": "rfl", "proofState": 0, "cmd": "x"}), P.Tactic)
    assert isinstance(P.parse_request({"path": "a.lean", "allTactics": True}), P.File)


def test_split_requests_matches_repl_reading():
    text = '{"cmd": "a",\n "env": 0}   \n\n# comment request\n\n-- another\n\n{"tactic": "rfl",\n"proofState": 0}\n'
    assert P.split_requests(text) == ['{"cmd": "a", "env": 0}', '{"tactic": "rfl","proofState": 0}']
    # A raw newline inside a JSON string is joined away, as the REPL does (invalid_line_break.in).
    joined = P.split_requests((VERSION_DIRS["v4.33"] / "invalid_line_break.in").read_text(encoding="utf-8"))
    assert json.loads(joined[0])["cmd"] == "theorem foo : 1 = 1 := bysorry"


def test_line_offset_conversion():
    m = P.Message(severity="error", pos=P.Pos(line=3, column=4), end_pos=P.Pos(line=3, column=9), data="x")
    assert P.to_message(m, line_offset=2).pos == T.Pos(line=1, column=4)
    assert P.to_message(m, line_offset=3).pos is None
    s = P.Sorry(goal="⊢ True", proof_state=7, pos=P.Pos(line=5, column=2), end_pos=P.Pos(line=5, column=7))
    h = P.to_hole(s, line_offset=2)
    assert h.state == 7 and h.pos == T.Pos(line=3, column=2) and h.end_pos == T.Pos(line=3, column=7)
    assert P.to_message(P.Message(severity="information", data="x", pos=None)).severity is T.Severity.INFO
