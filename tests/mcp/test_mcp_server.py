"""``prover-mcp`` over stdio, driven by the MCP SDK's own client, on real Rocq."""

from __future__ import annotations

import os
import signal
import time

import anyio
import psutil
import pytest
from mcp_testlib import LOOP, PROBLEM, mcp_session, solution

pytestmark = pytest.mark.rocq

TOOLS = {"check", "goals", "run_tactic", "search", "auto_close", "hammer", "verify", "prove"}


def run(scenario) -> None:
    anyio.run(scenario)


def test_every_tool_on_rocq(tmp_path):
    async def scenario():
        async with mcp_session() as s:
            assert {t.name for t in (await s.list_tools()).tools} == TOOLS

            ok = await s.call_tool("check", {"problem": PROBLEM, "proof": "intros; lia."})
            assert not ok.is_error and ok.structured_content["complete"] is True
            bad = await s.call_tool("check", {"problem": PROBLEM, "proof": solution(PROBLEM, "intros H.\nexact H.")})
            errs = bad.structured_content["errors"]
            assert not bad.is_error and not bad.structured_content["ok"]
            assert errs[0]["line"] == PROBLEM.splitlines().index("Proof.") + 3  # `exact H.`, in the file sent
            holed = await s.call_tool("check", {"problem": PROBLEM, "proof": "intros H.\nadmit."})
            assert not holed.structured_content["complete"] and "2 * n <= 2 * m + 1" in holed.structured_content["goals"][0]

            g = await s.call_tool("goals", {"problem": PROBLEM})
            st = g.structured_content["state"]
            assert "n <= m -> 2 * n <= 2 * m + 1" in g.structured_content["goals"][0]
            step = await s.call_tool("run_tactic", {"problem": PROBLEM, "state": st, "tactic": "intros H."})
            assert "H : n <= m" in step.structured_content["goals"][0] and not step.structured_content["proved"]
            wrong = await s.call_tool("run_tactic", {"problem": PROBLEM, "state": step.structured_content["state"], "tactic": "exact H."})
            assert not wrong.is_error and wrong.structured_content["state"] == step.structured_content["state"]
            assert wrong.structured_content["messages"]
            done = await s.call_tool("run_tactic", {"problem": PROBLEM, "state": step.structured_content["state"], "tactic": "lia."})
            assert done.structured_content["proved"] and "Qed." in done.structured_content["proof"]
            again = await s.call_tool("run_tactic", {"problem": PROBLEM, "state": st, "tactic": "intro."})  # old ids stay valid
            assert not again.is_error and again.structured_content["goals"]

            found = await s.call_tool("search", {"problem": PROBLEM, "query": "(_ * _ <= _ * _)"})
            assert "Nat.mul_le_mono_l" in found.structured_content["results"]

            auto = await s.call_tool("auto_close", {"problem": PROBLEM, "budget_s": 30})
            assert auto.structured_content["proved"], auto.structured_content
            for proof in (auto.structured_content["proof"], done.structured_content["proof"]):
                v = await s.call_tool("verify", {"problem": PROBLEM, "proof": proof})
                assert not v.is_error and v.structured_content["accepted"] is True and v.structured_content["stage"] == "accepted"
            rejected = await s.call_tool("verify", {"problem": PROBLEM, "proof": PROBLEM})
            assert not rejected.is_error and rejected.structured_content["accepted"] is False and rejected.structured_content["reason"]

            progress: list[str] = []

            async def on_progress(value, total, message):
                progress.append(message or "")

            proved = await s.call_tool("prove", {"problem": PROBLEM, "budget_s": 60}, progress_callback=on_progress)
            assert not proved.is_error and proved.structured_content["proved"] and "Qed." in proved.structured_content["proof"]
            assert "start" in progress and "end" in progress

            listing = await s.read_resource("prover://problems")
            import json

            (entry,) = json.loads(listing.contents[0].text)
            text = await s.read_resource(entry["problem"])
            assert text.contents[0].text == PROBLEM
            trace = await s.read_resource(entry["trace"])
            kinds = [json.loads(line)["kind"] for line in trace.contents[0].text.splitlines()]
            assert "tool" in kinds and "verdict" in kinds

    run(scenario)


def test_bad_input_is_a_tool_error_and_the_server_goes_on(tmp_path):
    (tmp_path / "p.v").write_text(PROBLEM, encoding="utf-8")
    outside = tmp_path.parent / "outside.v"

    async def scenario():
        async with mcp_session("--root", str(tmp_path)) as s:
            cases = [
                ("check", {"problem": "", "proof": "lia."}, "empty"),
                ("check", {"problem": PROBLEM, "proof": "  "}, "empty"),
                ("check", {"problem": "1 + 1", "proof": "lia."}, "language"),
                ("check", {"problem": PROBLEM.replace("Admitted.", "lia. Qed."), "proof": "lia."}, "already proved"),
                ("check", {"problem": PROBLEM, "proof": "lia.", "theorem": "nope"}, "nope"),
                ("run_tactic", {"problem": PROBLEM, "state": 999, "tactic": "lia."}, "unknown state"),
                ("goals", {"problem": PROBLEM, "proof": 'Load "/etc/passwd".'}, "refused"),
                ("search", {"problem": PROBLEM, "query": "nat. Extraction \"/tmp/x.ml\" plus"}, "one Search pattern"),
                ("verify", {"problem": PROBLEM, "proof": ""}, "candidate file"),
                ("check", {"problem": str(outside), "proof": "lia."}, "outside"),
                ("check", {"problem": "../outside.v", "proof": "lia."}, "outside"),
                ("check", {"problem": PROBLEM, "proof": "lia.", "budget_s": -1}, "budget_s"),
                ("check", {"problem": PROBLEM.replace("Theorem", 'Redirect "/tmp/x" Print nat.\nTheorem'), "proof": "lia."}, "IO"),
            ]
            for tool, args, words in cases:
                r = await s.call_tool(tool, args)
                assert r.is_error, (tool, args, r.structured_content)
                text = r.content[0].text
                assert words in text and "Traceback" not in text and len(text.splitlines()) == 1, text
            io = await s.call_tool("check", {"problem": PROBLEM, "proof": 'Redirect "/tmp/x" Print nat.'})
            assert not io.is_error and io.structured_content["refused"].startswith("[rocq.")
            by_path = await s.call_tool("check", {"problem": "p.v", "proof": "intros; lia."})
            assert not by_path.is_error and by_path.structured_content["complete"]

        async with mcp_session() as s:  # no --root: paths are refused
            r = await s.call_tool("check", {"problem": str(tmp_path / "p.v"), "proof": "lia."})
            assert r.is_error and "--root" in r.content[0].text

    run(scenario)


def test_concurrent_calls_and_a_looping_tactic_cut_at_its_limit():
    async def scenario():
        async with mcp_session("--sessions", "2") as s:
            results: dict[str, object] = {}

            async def one(key: str, proof: str, **extra):
                results[key] = await s.call_tool("check", {"problem": PROBLEM, "proof": proof, **extra})

            async with anyio.create_task_group() as tg:
                tg.start_soon(lambda: one("loop", LOOP, budget_s=3))
                for i in range(4):
                    tg.start_soon(lambda i=i: one(f"ok{i}", "intros; lia." if i % 2 == 0 else "intros H. exact H."))
            loop = results["loop"]
            assert not loop.is_error and loop.structured_content["timed_out"] is True
            for i in range(4):
                r = results[f"ok{i}"]
                assert not r.is_error and r.structured_content["complete"] is (i % 2 == 0)
            after = await s.call_tool("check", {"problem": PROBLEM, "proof": "intros; lia."})
            assert after.structured_content["complete"]

    run(scenario)


def _server_and_coqtops() -> tuple[psutil.Process, list[psutil.Process]]:
    me = psutil.Process()
    servers = [p for p in me.children() if "prover-mcp" in " ".join(p.cmdline()) or "prover.mcp.cli" in " ".join(p.cmdline())]
    assert len(servers) == 1
    coqtops = [p for p in servers[0].children(recursive=True) if p.name() == "coqtop"]
    return servers[0], coqtops


def test_coqtops_die_with_a_killed_server():
    seen: dict[str, list] = {}

    async def scenario():
        async with mcp_session("--sessions", "2") as s, anyio.create_task_group() as tg:

            async def looping():
                try:
                    await s.call_tool("check", {"problem": PROBLEM, "proof": LOOP, "budget_s": 120})
                except Exception:  # noqa: BLE001 - the server is killed under this call
                    pass

            tg.start_soon(looping)
            deadline = time.monotonic() + 300
            while True:  # the loop holds one session, busy
                server, coqtops = _server_and_coqtops()
                if coqtops:
                    break
                assert time.monotonic() < deadline, "the looping check never started"
                await anyio.sleep(0.3)
            await anyio.sleep(3.0)  # header loaded, the loop running (its limit is 120 s)
            idle = await s.call_tool("check", {"problem": PROBLEM, "proof": "intros; lia."})  # a second, idle one
            assert idle.structured_content["complete"]
            server, coqtops = _server_and_coqtops()
            cpu0 = {p.pid: sum(p.cpu_times()[:2]) for p in coqtops}
            await anyio.sleep(1.0)
            seen["busy"] = [p for p in coqtops if sum(p.cpu_times()[:2]) > cpu0[p.pid] + 0.05]
            os.kill(server.pid, signal.SIGKILL)
            t_kill = time.monotonic()
            _gone, alive = psutil.wait_procs(coqtops, timeout=5)
            seen["coqtops"], seen["alive"] = coqtops, alive
            seen["seconds"] = [time.monotonic() - t_kill]
            tg.cancel_scope.cancel()

    try:
        run(scenario)
    except BaseException as e:  # noqa: BLE001 - the client may see its server vanish; judged below
        seen.setdefault("error", [e])
    assert "alive" in seen, f"the scenario did not get to kill the server: {seen.get('error')}"
    assert len(seen["coqtops"]) >= 2 and seen["busy"]  # an idle coqtop and one running the loop
    assert not seen["alive"], f"coqtop still running {seen['seconds'][0]:.1f}s after the server died: {seen['alive']}"
    me = psutil.Process()
    assert not [p for p in me.children(recursive=True) if p.name() == "coqtop"]


def test_streamable_http_keeps_states_per_session():
    import socket
    import subprocess

    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp_testlib import ROOT, server_command

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    cmd, argv = server_command("--transport", "http", "--port", str(port))
    proc = subprocess.Popen([cmd, *argv], cwd=str(ROOT), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/mcp"

    async def scenario():
        deadline = time.monotonic() + 120
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "the HTTP server did not start"
                await anyio.sleep(0.3)
        async with streamable_http_client(url) as (r1, w1), ClientSession(r1, w1) as a, \
                streamable_http_client(url) as (r2, w2), ClientSession(r2, w2) as b:
            await a.initialize()
            await b.initialize()
            g = await a.call_tool("goals", {"problem": PROBLEM})
            st = g.structured_content["state"]
            mine = await a.call_tool("run_tactic", {"problem": PROBLEM, "state": st, "tactic": "intros H."})
            assert not mine.is_error and "H : n <= m" in mine.structured_content["goals"][0]
            other = await b.call_tool("run_tactic", {"problem": PROBLEM, "state": st, "tactic": "intros H."})
            assert other.is_error and "unknown state" in other.content[0].text

    try:
        run(scenario)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
