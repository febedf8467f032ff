"""``prove`` CLI: exit codes 0/1/2, --json, --out, --trace, and the model path over HTTP."""

import json
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from prover_testlib import DATA, Router

from prover.commands.prove import main
from prover.llm.base import ChatMessage
from prover.llm.scripted import to_response

SIMPLE = "Require Import Arith Lia.\n\nTheorem add_comm_example (a b : nat) : a + b = b + a.\nProof.\nAdmitted.\n"


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return str(p)


@pytest.mark.parametrize(
    "name,text,msg",
    [
        ("x.txt", "hello", "unknown file type"),
        # a Rocq file is read after the check that Rocq is installed
        pytest.param("done.v", "Theorem t : True.\nProof. exact I. Qed.\n", "already proved", marks=pytest.mark.rocq),
        pytest.param("none.v", "Require Import Arith.\n", "no theorem", marks=pytest.mark.rocq),
    ],
)
def test_bad_input_exit_2(tmp_path, capsys, name, text, msg):
    assert main([write(tmp_path, name, text)]) == 2
    err = capsys.readouterr().err
    assert msg in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_missing_file_and_bad_options_exit_2(tmp_path, capsys):
    assert main([str(tmp_path / "nope.v")]) == 2
    f = write(tmp_path, "s.v", SIMPLE)
    assert main([f, "--informal", str(tmp_path / "nope.txt")]) == 2
    assert main([f, "--config", str(tmp_path / "nope.toml")]) == 2
    assert main([f, "--workers", "0"]) == 2
    assert "error" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("lake") is not None or shutil.which("lean") is not None, reason="Lean is installed here")
def test_lean_missing_exit_2_with_setup_hint(tmp_path, capsys):
    f = write(tmp_path, "t.lean", "import Mathlib\n\ntheorem t : 1 + 1 = 2 := by\n  sorry\n")
    assert main([f]) == 2
    assert "prover-setup lean" in capsys.readouterr().err


@pytest.mark.rocq
def test_statement_that_does_not_compile_exit_2(tmp_path, capsys):
    f = write(tmp_path, "bad.v", "Require Import Arith.\n\nTheorem t : undefined_thing = 1.\nProof.\nAdmitted.\n")
    assert main([f, "--no-cache", "--quiet"]) == 2
    assert "does not compile" in capsys.readouterr().err


@pytest.mark.rocq
def test_default_mode_proves_with_json_out_and_trace(tmp_path, capsys):
    f = write(tmp_path, "s.v", SIMPLE)
    out, trace = tmp_path / "proof.v", tmp_path / "trace.jsonl"
    rc = main([f, "--json", "--no-cache", "--out", str(out), "--trace", str(trace)])
    summary = json.loads(capsys.readouterr().out)
    assert rc == 0, summary
    assert summary["proved"] and summary["mode"] == "default" and summary["verdict"]["accepted"]
    assert out.read_text() == summary["proof_text"] and "Qed." in summary["proof_text"]
    kinds = [json.loads(line)["kind"] for line in trace.read_text().splitlines()]
    assert kinds[0] == "start" and kinds[-1] == "end" and "search" in kinds


@pytest.mark.rocq
def test_not_proved_exit_1(tmp_path, capsys):
    f = write(tmp_path, "false.v", "Require Import Arith Lia.\n\nTheorem wrong (n : nat) : n + 1 = n.\nProof.\nAdmitted.\n")
    rc = main([f, "--json", "--no-cache", "--search-timeout", "3", "--timeout", "60"])
    summary = json.loads(capsys.readouterr().out)
    assert rc == 1 and not summary["proved"] and summary["proof_text"] is None


class OpenAIFromRouter:
    """A local OpenAI-compatible server whose answers come from a Router script."""

    def __init__(self, router):
        outer = self
        self.router = router

        class H(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                msgs = [ChatMessage(role=m["role"], content=m.get("content") or "") for m in body["messages"]]
                resp = to_response(outer.router._route(msgs, body.get("tools", [])))
                msg = {"role": "assistant", "content": resp.text}
                if resp.tool_calls:
                    msg["tool_calls"] = [
                        {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.raw_arguments}}
                        for c in resp.tool_calls
                    ]
                data = json.dumps(
                    {"choices": [{"message": msg, "finish_reason": "stop"}], "usage": {"prompt_tokens": 5, "completion_tokens": 5}}
                ).encode()
                self.send_response(200)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), H)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.mark.rocq
def test_cli_with_a_model_over_http(tmp_path, capsys):
    sketch = (
        "```coq\nLemma double_mono (n m : nat) : n <= m -> 2 * n <= 2 * m.\nAdmitted.\n"
        "Theorem double_le (n m : nat) : n <= m -> 2 * n <= 2 * m + 1.\nProof.\n  intros H. pose proof (double_mono n m H). lia.\nQed.\n```"
    )
    verdict = json.dumps(
        {"reasoning": "Step 2 is asserted.", "score": 0.6, "flags": [{"step": "2", "issue": "why add one?", "check_code": None}]}
    )
    server = OpenAIFromRouter(
        Router(sketch=[sketch], lemmas={"double_mono": [{"tool": "check", "args": {"proof": "intros; lia."}}]}, verify=[verdict])
    )
    cfg = write(tmp_path, "c.toml", "[prover]\ndirect_search_first = false\nautomation_first = false\nworkers = 2\n")
    informal = write(tmp_path, "informal.md", "Double both sides, then add one.")
    try:
        rc = main(
            [
                str(DATA / "double_le.v"),
                "--config",
                cfg,
                "--informal",
                informal,
                "--backend",
                "openai",
                "--endpoint",
                server.url,
                "--model",
                "scripted",
                "--json",
                "--no-cache",
            ]
        )
    finally:
        server.close()
    summary = json.loads(capsys.readouterr().out)
    assert rc == 0, summary
    assert summary["mode"] == "agent" and summary["model"] == "scripted"
    assert summary["lemmas"] == [{"name": "double_mono", "proved": True, "source": "agent", "attempts": 1}]
    # No informal proof asked for (the user gave one), but the user's proof is graded.
    assert summary["spent"]["llm_calls"] == 3 and server.router.seen == ["verify", "sketch", "lemma:double_mono"]
    assert summary["informal"] == {
        "source": "user",
        "candidate": "user",
        "score": 0.6,
        "flags": [{"step": "2", "issue": "why add one?", "check_code": None}],
    }
