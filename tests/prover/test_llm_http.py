"""The OpenAI-compatible backend against a local http.server on 127.0.0.1."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from prover.config import ModelConfig, SamplingConfig
from prover.llm.base import ChatMessage, ToolSpec, parse_text_tool_calls
from prover.llm.openai_client import OpenAIChat

TOOL = ToolSpec(name="check_proof", description="check", parameters={"type": "object", "properties": {"proof": {"type": "string"}}})


def ok_body(content="hi", tool_calls=None, finish="stop", usage=True):
    msg = {"role": "assistant", "content": content}
    if tool_calls is not None:
        msg["tool_calls"] = tool_calls
    body = {"choices": [{"index": 0, "message": msg, "finish_reason": finish}]}
    if usage:
        body["usage"] = {"prompt_tokens": 12, "completion_tokens": 7}
    return body


class Server:
    """Answers each POST with the next scripted action: (status, body|str, delay_s)."""

    def __init__(self, actions):
        self.actions = list(actions)
        self.requests = []
        outer = self

        class H(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def do_POST(self):
                n = int(self.headers.get("Content-Length", 0))
                outer.requests.append((self.path, json.loads(self.rfile.read(n)), dict(self.headers)))
                status, body, delay = outer.actions.pop(0) if outer.actions else (500, "no action", 0)
                if delay:
                    time.sleep(delay)
                data = (body if isinstance(body, str) else json.dumps(body)).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), H)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()

    @property
    def url(self):
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"


def client(url, **kw):
    cfg = ModelConfig(
        type="openai",
        model="m",
        endpoint=url,
        timeout_s=kw.pop("timeout_s", 5.0),
        max_retries=kw.pop("max_retries", 2),
        backoff_s=0.0,
        **kw,
    )
    return OpenAIChat(cfg, SamplingConfig(max_tokens=50, seed=1))


MSGS = [ChatMessage(role="user", content="prove it")]


def test_text_and_tool_calls_and_usage(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    calls = [{"id": "c1", "type": "function", "function": {"name": "check_proof", "arguments": '{"proof": "lia."}'}}]
    with Server([(200, ok_body("thinking", calls, "tool_calls"), 0)]) as s:
        r = client(s.url).chat(MSGS, tools=[TOOL])
    assert r.ok and r.text == "thinking" and r.finish_reason == "tool_calls"
    assert r.tool_calls[0].name == "check_proof" and r.tool_calls[0].arguments == {"proof": "lia."}
    assert (r.usage.prompt_tokens, r.usage.completion_tokens) == (12, 7)
    path, body, headers = s.requests[0]
    assert path == "/v1/chat/completions" and body["tools"][0]["function"]["name"] == "check_proof"
    assert body["seed"] == 1 and body["max_tokens"] == 50
    assert headers.get("Authorization") == "Bearer sk-test"


def test_http_500_is_retried_then_succeeds():
    with Server([(500, "boom", 0), (503, "busy", 0), (200, ok_body("fine"), 0)]) as s:
        r = client(s.url, max_retries=2).chat(MSGS)
    assert r.ok and r.text == "fine" and r.attempts == 3 and len(s.requests) == 3


def test_http_500_persisting_is_a_value():
    with Server([(500, "boom", 0)] * 3) as s:
        r = client(s.url, max_retries=2).chat(MSGS)
    assert not r.ok and "HTTP 500" in r.error and r.attempts == 3


def test_client_error_is_not_retried():
    with Server([(400, '{"error": "bad request"}', 0), (200, ok_body(), 0)]) as s:
        r = client(s.url).chat(MSGS)
    assert not r.ok and "HTTP 400" in r.error and len(s.requests) == 1


def test_timeout_is_a_value():
    with Server([(200, ok_body(), 1.5), (200, ok_body(), 1.5)]) as s:
        t0 = time.monotonic()
        r = client(s.url, timeout_s=0.3, max_retries=1).chat(MSGS)
    assert not r.ok and "timeout" in r.error
    assert time.monotonic() - t0 < 5


def test_truncated_response_body_is_retried_then_a_value():
    with Server([(200, '{"choices": [{"message": {"content": "abc', 0)] * 2) as s:
        r = client(s.url, max_retries=1).chat(MSGS)
    assert not r.ok and "malformed response" in r.error


def test_malformed_and_truncated_tool_arguments_are_values():
    calls = [
        {"id": "a", "type": "function", "function": {"name": "check_proof", "arguments": '{"proof": "li'}},
        {"id": "b", "type": "function", "function": {"name": "check_proof", "arguments": "[1, 2]"}},
        {"id": "c", "type": "function", "function": {"name": "", "arguments": "{}"}},
    ]
    with Server([(200, ok_body("", calls, "length", usage=False), 0)]) as s:
        r = client(s.url).chat(MSGS, tools=[TOOL])
    assert r.ok and r.finish_reason == "length"
    a, b, c = r.tool_calls
    assert a.error and "not valid JSON" in a.error and a.arguments is None
    assert b.error == "arguments must be a JSON object"
    assert c.error and "name" in c.error
    assert r.usage.completion_tokens >= 0


def test_connection_refused_is_a_value():
    r = client("http://127.0.0.1:9/v1", max_retries=1).chat(MSGS)
    assert not r.ok and "connection failed" in r.error


def test_text_tool_calls_without_native_support():
    with Server([(200, ok_body('Let me check.\n<tool_call>{"name": "check_proof", "arguments": {"proof": "auto."}}</tool_call>'), 0)]) as s:
        r = client(s.url, native_tools=False).chat(MSGS, tools=[TOOL])
    assert r.tool_calls[0].arguments == {"proof": "auto."} and r.text == "Let me check."
    body = s.requests[0][1]
    assert "tools" not in body and "<tool_call>" in body["messages"][0]["content"]


def test_parse_text_tool_calls_truncated():
    text, calls = parse_text_tool_calls('x <tool_call>{"name": "check_proof", "arguments": {"proof": "li')
    assert text == "x" and calls[0].name == "check_proof" and "not valid JSON" in calls[0].error


def test_concurrency_limit():
    with Server([(200, ok_body(), 0.3)] * 4) as s:
        c = client(s.url, concurrency=1)
        t0 = time.monotonic()
        threads = [threading.Thread(target=c.chat, args=(MSGS,)) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - t0
    assert elapsed >= 0.85, elapsed  # three requests, one at a time
    assert c.calls == 3 and c.tokens_in == 36
