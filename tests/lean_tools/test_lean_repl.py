"""LeanReplSession driven against tests/lean_tools/fake_repl.py, which replays recorded REPL traffic.

The fake is a separate process on pipes, so these tests exercise the real framing, threads,
timeouts, process-group kills and respawns; only Lean itself is replaced by recordings.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from lean_tools import types as T
from lean_tools.lean import protocol as P
from lean_tools.lean.repl import LeanReplConfig, LeanReplSession, split_header
from lean_tools.procstat import group_usage
from lean_tools.session import ProofSession

HERE = Path(__file__).resolve().parent
FAKE = HERE / "fake_repl.py"
DATA = HERE.parent / "data" / "lean_repl"
V433 = DATA / "test"


def fake_config(transcript: Path, *extra: str, version: str | None = "4.33.0-rc2", **kw) -> LeanReplConfig:
    argv = [sys.executable, "-I", "-S", str(FAKE), "--transcript", str(transcript), *extra]
    if version:
        argv += ["--lean-version", version]
    kw.setdefault("check_versions", False)
    kw.setdefault("probe_version", version is not None)
    kw.setdefault("isolate_network", False)
    return LeanReplConfig(repl_argv=tuple(argv), cwd=str(HERE), **kw)


def recorded(transcript: Path) -> list[tuple[dict, dict]]:
    reqs = [json.loads(q) for q in P.split_requests(transcript.read_text(encoding="utf-8"))]
    out = transcript.with_name(transcript.name[: -len(".in")] + ".expected.out")
    return list(zip(reqs, P.split_responses(out.read_text(encoding="utf-8"))))


def dead(pid: int) -> bool:
    import psutil

    try:
        return psutil.Process(pid).status() in (psutil.STATUS_ZOMBIE, psutil.STATUS_DEAD)
    except psutil.NoSuchProcess:
        return True


def wait_dead(pids, timeout=5.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if all(dead(p) for p in pids):
            return True
        time.sleep(0.05)
    return False


def untimed(outcome):
    """The outcome without its measured times (the recording has none)."""
    timing = {"wall_seconds": 0.0}
    if isinstance(outcome, T.CommandOutcome):
        timing["cpu_seconds"] = 0.0
    return outcome.model_copy(update=timing)


def session_shaped() -> list[Path]:
    """Recorded files of the session pattern: a header without env, then commands on env 0 and tactics."""
    found = []
    for f in sorted(DATA.rglob("*.in")):
        pairs = recorded(f) if f.with_name(f.name[:-3] + ".expected.out").exists() else []
        if len(pairs) < 2 or set(pairs[0][0]) != {"cmd"}:
            continue
        rest = [r for r, _ in pairs[1:]]
        if all((set(r) == {"cmd", "env"} and r["env"] == 0) or set(r) == {"tactic", "proofState"} for r in rest):
            found.append(f)
    return found


SESSION_FILES = session_shaped()


def test_enough_session_transcripts():
    assert len(SESSION_FILES) >= 80
    assert {f.relative_to(DATA).parts[1] for f in SESSION_FILES if f.parts[-4] == "legacy" or "legacy" in f.parts} >= {
        "v4.9.0",
        "v4.15.0",
        "v4.19.0",
    }


@pytest.mark.parametrize("transcript", SESSION_FILES, ids=lambda p: str(p.relative_to(DATA)))
def test_replay_recorded_session(transcript: Path):
    pairs = recorded(transcript)
    header_req, header_resp = pairs[0]
    with LeanReplSession(header_req["cmd"], config=fake_config(transcript)) as s:
        assert isinstance(s, ProofSession) and s.alive()
        assert s.header_env == header_resp["env"] == 0
        for req, resp in pairs[1:]:
            expected = P.parse_response(resp)
            if "cmd" in req:
                got = s.run_command(req["cmd"])
                want = P.to_command_outcome(expected)
            else:
                if isinstance(expected, P.ErrorResponse) and expected.unknown_id:
                    with pytest.raises(T.InvalidRequest, match="does not exist"):
                        s.run_tactic(req["proofState"], req["tactic"])
                    continue
                got = s.run_tactic(req["proofState"], req["tactic"])
                want = P.to_tactic_outcome(expected)
            assert untimed(got) == want
        assert s.uses == len(pairs) - 1 - sum(1 for _, r in pairs if r.get("message") == "Unknown proof state.")
        pid = s.pid
    assert pid is not None and wait_dead([pid])
    assert not s.alive()


def test_invalid_requests_are_never_sent():
    transcript = V433 / "readme.in"  # def f ... sorry; apply Int.natAbs on 0; exact -37 on 1
    with LeanReplSession("def f (x : Unit) : Nat := by sorry", config=fake_config(transcript)) as s:
        with pytest.raises(T.InvalidRequest, match="proof state 99"):
            s.run_tactic(99, "rfl")
        with pytest.raises(T.InvalidRequest, match="import"):
            s.run_command("import Mathlib\nexample : True := trivial")
        with pytest.raises(T.InvalidRequest):
            s.run_tactic(-1, "rfl")
        # The fake exits on any request that differs from the recording: it saw none of the above.
        t = s.run_tactic(0, "apply Int.natAbs")
        assert t.state == 1 and t.goals == ("x : Unit\n⊢ Int",) and t.status is T.ProofStatus.OPEN_GOALS
        done = s.run_tactic(1, "exact -37")
        assert done.proved and s.uses == 2


def test_header_that_does_not_elaborate_is_refused():
    transcript = V433 / "invalid_line_break.in"
    s = LeanReplSession("theorem foo : 1 = 1 := bysorry", config=fake_config(transcript))
    with pytest.raises(T.InvalidRequest, match="header does not elaborate: Unknown identifier"):
        s.start()
    assert not s.alive()
    s.close()


def test_prepend_mode_shifts_positions_back_past_the_header():
    transcript = V433 / "Mathlib" / "test" / "line_breaks.in"
    (_, _), (req, resp) = recorded(transcript)
    lines = req["cmd"].split("\n")
    header = "import Mathlib\n" + "\n".join(lines[:2])  # two comment lines after the imports
    code = "\n".join(lines[2:])
    assert split_header(header) == ("import Mathlib", "\n".join(lines[:2]))
    with LeanReplSession(header, config=fake_config(transcript, prelude_mode="prepend")) as s:
        out = s.run_command(code)
    raw_warning = resp["messages"][0]
    assert raw_warning["pos"]["line"] == 3
    (warning,) = out.messages
    assert warning.pos == T.Pos(line=1, column=8) and warning.end_pos == T.Pos(line=1, column=12)
    code_lines = code.split("\n")
    assert code_lines[0][8:12] == "demo"  # the declaration name the sorry warning points at
    (hole,) = out.holes
    assert code_lines[hole.pos.line - 1][hole.pos.column : hole.end_pos.column] == "sorry"
    assert hole.state == 0


def test_env_mode_sends_header_once_and_positions_are_already_relative():
    transcript = V433 / "Mathlib" / "test" / "H20231020.in"  # header with imports and `open`s
    pairs = recorded(transcript)
    with LeanReplSession(pairs[0][0]["cmd"], config=fake_config(transcript, "--stderr-noise")) as s:
        for req, resp in pairs[1:]:
            out = s.run_command(req["cmd"])
            assert out.env == resp["env"]
            for m, raw in zip(out.messages, resp.get("messages", [])):
                assert m.pos == T.Pos(**raw["pos"])


def test_timeout_kills_the_whole_group_then_respawns(tmp_path):
    transcript = V433 / "Mathlib" / "test" / "exact.in"
    pids = tmp_path / "pids"
    cfg = fake_config(transcript, "--hang-on", "SLOW", "--pid-file", str(pids))
    with LeanReplSession("import Mathlib", config=cfg) as s:
        t0 = time.monotonic()
        with pytest.raises(T.SessionTimeout):
            s.run_command("theorem SLOW : True := trivial", timeout=1.0)
        assert time.monotonic() - t0 < 4.0
        first = [int(x) for x in pids.read_text().split()]
        assert len(first) == 2  # the fake and the child it started
        assert wait_dead(first), "process group survived the timeout"
        assert not s.alive()
        out = s.run_command("theorem test : 0 < 1 := by sorry")  # respawn + header replay
        assert s.restarts == 1 and s.alive() and out.holes[0].state == 0
        assert s.run_tactic(0, "exact?").proved


def test_crash_reports_stderr_then_respawn_works(tmp_path):
    transcript = V433 / "Mathlib" / "test" / "exact.in"
    with LeanReplSession("import Mathlib", config=fake_config(transcript, "--die-on", "CRASH")) as s:
        first = s.run_command("theorem test : 0 < 1 := by sorry")
        with pytest.raises(T.SessionCrashed, match="INTERNAL PANIC") as e:
            s.run_command("theorem CRASH : True := trivial")
        assert "INTERNAL PANIC" in e.value.stderr_tail
        assert not s.alive()
        # replay="header": the proof state of before the crash is gone, and refused.
        with pytest.raises(T.InvalidRequest, match="does not exist"):
            s.run_tactic(first.holes[0].state, "exact?")
        assert s.restarts == 1
        assert s.run_command("theorem test : 0 < 1 := by sorry").holes[0].state == 0


def test_replay_all_keeps_old_proof_states_after_a_crash():
    transcript = V433 / "Mathlib" / "test" / "exact.in"
    with LeanReplSession("import Mathlib", config=fake_config(transcript, "--die-on", "CRASH", replay="all")) as s:
        hole = s.run_command("theorem test : 0 < 1 := by sorry").holes[0]
        with pytest.raises(T.SessionCrashed):
            s.run_command("theorem CRASH : True := trivial")
        assert s.run_tactic(hole.state, "exact?").proved  # respawned, replayed, same ids
        assert s.restarts == 1


def test_send_passes_other_requests_through():
    transcript = V433 / "Mathlib" / "test" / "H20231215.in"  # header, then pickle env 0
    (hreq, _), (preq, presp) = recorded(transcript)
    with LeanReplSession(hreq["cmd"], config=fake_config(transcript)) as s:
        resp = s.send(P.PickleEnv(pickle_to=preq["pickleTo"], env=s.header_env))
        assert isinstance(resp, P.CommandResponse) and resp.env == presp["env"]  # recorded: the pickled env's own id
        assert s.uses == 0  # only run_command / run_tactic count


def test_exit_137_is_out_of_memory():
    transcript = V433 / "Mathlib" / "test" / "exact.in"
    config = fake_config(transcript, "--die-on", "OOM", "--die-code", "137")
    with LeanReplSession("import Mathlib", config=config) as s, pytest.raises(T.SessionOutOfMemory):
        s.run_command("theorem OOM : True := trivial")


def test_rss_watch_kills_a_growing_process(tmp_path):
    transcript = V433 / "Mathlib" / "test" / "exact.in"
    pids = tmp_path / "pids"
    cfg = fake_config(
        transcript,
        "--bloat-on",
        "BLOAT",
        "--bloat-mb",
        "300",
        "--pid-file",
        str(pids),
        max_rss_bytes=150 * 1024**2,
        poll_seconds=0.1,
    )
    with LeanReplSession("import Mathlib", config=cfg) as s:
        assert group_usage(s.pid)[0] > 1024**2  # the watch sees the fake's resident memory
        with pytest.raises(T.SessionOutOfMemory, match="resident memory"):
            s.run_command("theorem BLOAT : True := trivial", timeout=20)
        assert wait_dead([int(x) for x in pids.read_text().split()])


def test_protocol_violation_is_a_crash(tmp_path):
    # A fake "REPL" that prints something that is not JSON, then a blank line.
    script = tmp_path / "liar.py"
    script.write_text(
        "import sys\nsys.stdin.readline()\nprint('hello, I am not Lean')\nprint()\nsys.stdout.flush()\nimport time\ntime.sleep(30)\n"
    )
    cfg = LeanReplConfig(
        repl_argv=(sys.executable, str(script)),
        cwd=str(tmp_path),
        check_versions=False,
        probe_version=False,
        isolate_network=False,
    )
    s = LeanReplSession("import Mathlib", config=cfg)
    with pytest.raises(T.SessionCrashed, match="broke the protocol"):
        s.start()
    pid = s.pid
    s.close()
    assert pid is None or wait_dead([pid])


def write_project(root: Path, lean: str, mathlib: str, repl: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "lean-toolchain").write_text(f"leanprover/lean4:{lean}\n")
    manifest = {
        "version": "1.1.0",
        "packagesDir": ".lake/packages",
        "packages": [
            {"name": "mathlib", "inputRev": mathlib, "rev": "a" * 40, "type": "git"},
            {"name": "REPL", "inputRev": repl, "rev": "b" * 40, "type": "git"},
        ],
    }
    (root / "lake-manifest.json").write_text(json.dumps(manifest))
    return root


def test_version_check_at_start(tmp_path):
    transcript = V433 / "Mathlib" / "test" / "exact.in"
    good = write_project(tmp_path / "good", "v4.33.0-rc2", "v4.33.0-rc2", "v4.33.0-rc2")
    cfg = fake_config(transcript, check_versions=True, project_dir=str(good))
    with LeanReplSession("import Mathlib", config=cfg) as s:
        assert s.lean_version == "4.33.0-rc2"
    # The running REPL says another version: refused, process killed.
    cfg = fake_config(transcript, version="4.15.0", check_versions=True, project_dir=str(good))
    s = LeanReplSession("import Mathlib", config=cfg)
    with pytest.raises(T.VersionMismatch, match=r"4\.15\.0"):
        s.start()
    assert not s.alive()
    s.close()
    # The manifest pins another Mathlib: refused before anything is spawned.
    bad = write_project(tmp_path / "bad", "v4.33.0-rc2", "v4.32.0", "v4.33.0-rc2")
    s = LeanReplSession("import Mathlib", config=fake_config(transcript, check_versions=True, project_dir=str(bad)))
    with pytest.raises(T.VersionMismatch, match=r"Mathlib is pinned to v4\.32\.0"):
        s.start()
    assert s.pid is None
    s.close()


def test_unreadable_version_is_not_a_mismatch(tmp_path):
    transcript = V433 / "Mathlib" / "test" / "exact.in"
    good = write_project(tmp_path / "good", "v4.33.0-rc2", "v4.33.0-rc2", "v4.33.0-rc2")
    cfg = fake_config(transcript, version="no version here", check_versions=True, project_dir=str(good))
    with LeanReplSession("import Mathlib", config=cfg) as s:
        assert s.lean_version is None and s.header_env == 0
        assert s.run_command("theorem test : 0 < 1 := by sorry").holes[0].state == 0


def test_not_installed_hints(tmp_path):
    project = write_project(tmp_path / "p", "v4.27.0", "v4.27.0", "v4.27.0")
    cfg = LeanReplConfig(repl_argv=("no-such-lake-binary-xyz", "env", "repl"), project_dir=str(project))
    with pytest.raises(T.NotInstalled, match="prover-setup lean"):
        LeanReplSession("import Mathlib", config=cfg).start()
    lake = tmp_path / "bin" / "lake"
    lake.parent.mkdir()
    lake.write_text("#!/bin/sh\nexit 0\n")
    lake.chmod(0o755)
    cfg = LeanReplConfig(
        repl_argv=(str(lake), "env", ".lake/packages/REPL/.lake/build/bin/repl"), project_dir=str(project)
    )
    with pytest.raises(T.NotInstalled, match="REPL binary"):
        LeanReplSession("import Mathlib", config=cfg).start()
    with pytest.raises(T.NotInstalled):
        LeanReplSession("import Mathlib", config=LeanReplConfig(project_dir=str(tmp_path / "missing"))).start()


def test_config_loads_from_toml(tmp_path):
    f = tmp_path / "lean.toml"
    f.write_text('[lean]\ndefault_timeout = 12.5\nprelude_mode = "prepend"\nrepl_argv = ["lake", "exe", "repl"]\n')
    cfg = LeanReplConfig.from_toml(f)
    assert cfg.default_timeout == 12.5 and cfg.prelude_mode == "prepend" and cfg.repl_argv == ("lake", "exe", "repl")
    f.write_text("[lean]\nno_such_field = 1\n")
    with pytest.raises(ValueError):
        LeanReplConfig.from_toml(f)


def test_split_header():
    assert split_header("import Mathlib\nimport Aesop\n\nopen Real\nset_option maxHeartbeats 400000") == (
        "import Mathlib\nimport Aesop",
        "open Real\nset_option maxHeartbeats 400000",
    )
    assert split_header("-- c\nimport Mathlib") == ("-- c\nimport Mathlib", "")
    assert split_header("def x := 1") == ("", "def x := 1")


@pytest.mark.lean
def test_real_repl_round_trip():
    with LeanReplSession("import Mathlib\nopen Real") as s:
        out = s.run_command("theorem t (x : ℝ) : x ≤ x := by sorry")
        assert out.ok and len(out.holes) == 1
        assert s.run_tactic(out.holes[0].state, "exact le_refl x").proved
        bad = s.run_command("theorem u : (2 : ℕ) + 2 = 5 := by norm_num")
        assert not bad.ok
