"""CoqHammer in the search: parsing what the plugin prints, the reconstruction cache, the proof
text, and (tier ``slow``) real ``hammer`` runs whose kept proofs re-check without any ATP."""

import shutil
import subprocess

import pytest

from prover.cache import ReconstructionCache
from prover.search.hammer import (
    TACTICS_IMPORT,
    HammerSettings,
    parse_dependencies,
    parse_reconstruction,
    replay_block,
)
from prover.search.search import _render_proof
from prover.search.table import ROCQ

# What libcoq-hammer 1.3.2 printed for a list statement of ours (session info messages joined).
PRINTED = """Running provers (2 threads)...
CVC4 (knn-64) succeeded
- dependencies: Lists.List.app_length, Lists.List.rev_length
Reconstructing the proof...
Tactic scongruence succeeded.
Replace the hammer tactic with:
\tscongruence use: app_length, rev_length.
"""


def test_reconstruction_and_dependencies_are_read_from_the_plugin_output():
    assert parse_reconstruction(PRINTED) == "scongruence use: app_length, rev_length"
    assert parse_dependencies(PRINTED) == ("Lists.List.app_length", "Lists.List.rev_length")


def test_a_multi_word_reconstruction_is_kept_whole_and_nothing_is_invented():
    text = "Tactic hauto succeeded.\nReplace the hammer tactic with:\n\thauto lq: on use: Nat.gcd_comm, Nat.lcm_comm.\n"
    assert parse_reconstruction(text) == "hauto lq: on use: Nat.gcd_comm, Nat.lcm_comm"
    assert parse_reconstruction("ATPs failed to find a proof.") is None
    # coqtop's info message for a tactic without lemmas has no final period (measured, 8.16.1)
    assert parse_reconstruction("Replace the hammer tactic with: sfirstorder") == "sfirstorder"
    assert parse_reconstruction("Replace the hammer tactic with:\n\thauto use: Nat.add_comm\n") == "hauto use: Nat.add_comm"
    # the shell's complaint about a missing prover may follow as a separate message
    later = "Replace the hammer tactic with:\n\tsauto use: rev_length.\n\nsh: 1: vampire: not found\n\nsh: 1: z3_tptp: not found"
    assert parse_reconstruction(later) == "sauto use: rev_length"
    assert parse_dependencies("nothing here") == ()
    # the plugin prints `srun eauto use: x`, which does not parse; `srun (eauto) use: x` does
    srun = "Replace the hammer tactic with:\n\tsrun eauto use: Nat.eqb_sym.\n"
    assert parse_reconstruction(srun) == "srun (eauto) use: Nat.eqb_sym"
    assert parse_reconstruction(srun.replace("eauto", "(eauto with nocore)")) == "srun (eauto with nocore) use: Nat.eqb_sym"


def test_settings_block_loads_the_plugin_only_in_the_session_and_replay_is_a_whole_sentence():
    block = HammerSettings(seconds=12.5, atp_seconds=4, threads=1).block()
    assert block.splitlines()[0] == "From Hammer Require Import Hammer."
    assert "Set Hammer ATPLimit 4." in block and "Set Hammer GSMode 1." in block
    assert block.endswith("Timeout 13 hammer.")
    # a reconstruction is replayed as a bare sentence, not as `(tac)`
    assert replay_block("srun (eauto) use: rev_involutive", 3).endswith("Timeout 3 srun (eauto) use: rev_involutive.")


def test_kept_proof_has_every_import_first_and_no_hammer_call():
    script = ("intros.", f"{TACTICS_IMPORT} sauto use: Nat.add_comm.")
    proof = _render_proof(ROCQ, script)
    lines = proof.splitlines()
    assert lines[:2] == [ROCQ.imports, TACTICS_IMPORT]
    assert lines[2:] == ["intros.", "sauto use: Nat.add_comm."]
    assert "hammer" not in proof.replace("Hammer", "")


def test_reconstruction_cache_memory_and_sqlite(tmp_path):
    for path in (None, tmp_path / "lemmas.sqlite"):
        c = ReconstructionCache(path)
        goal = "  l, m : list nat\n  ============================\n  length (l ++ m) = length m + length l"
        assert c.get("Require Import List.", goal) == ()
        c.put("Require Import List.", goal, "sauto use: app_length")
        c.put("Require Import List.", goal, "hauto use: app_length, Nat.add_comm")
        # whitespace in the goal does not matter, the header does
        assert c.get("Require Import List.", " ".join(goal.split()))[0] == "hauto use: app_length, Nat.add_comm"
        assert len(c.get("Require Import List.", goal)) == 2
        assert c.get("Require Import Arith.", goal) == ()
    again = ReconstructionCache(tmp_path / "lemmas.sqlite")
    assert len(again) == 2


@pytest.mark.slow
@pytest.mark.rocq
@pytest.mark.hammer
def test_hammer_only_proves_a_list_fact_and_the_kept_proof_rechecks_without_atps(tmp_path, monkeypatch):
    from lean_tools.rocq.session import RocqSession
    from prover.search import SearchBudget, prove_goal

    monkeypatch.chdir(tmp_path)
    header = "Require Import List Arith.\nImport ListNotations."
    stmt = "Lemma rev_concat_length (A : Type) (xs ys : list A) : length (rev (xs ++ ys)) = length xs + length ys."
    cache = ReconstructionCache(None)
    budget = SearchBudget(seconds=150, hammer="only", hammer_seconds=140)
    res = prove_goal(RocqSession, header, stmt, "rocq", budget, reconstructions=cache)
    assert res.proved, res.reason
    assert res.tags[-1] == "hammer"
    assert TACTICS_IMPORT in res.proof and "use:" in res.proof
    body = res.proof.replace(TACTICS_IMPORT, "")
    assert "hammer" not in body
    # the proof re-checks in a fresh coqc whose PATH holds coqc alone: no ATP (eprover, z3, cvc4
    # live in /usr/bin) and no hammer helper (htimeout, predict) can be found
    bin_dir = tmp_path / "only_coqc"
    bin_dir.mkdir()
    coqc = shutil.which("coqc")
    assert coqc is not None
    (bin_dir / "coqc").symlink_to(coqc)
    (tmp_path / "t.v").write_text(f"{header}\n{stmt}\nProof.\n{res.proof}\nQed.\n")
    r = subprocess.run(
        [coqc, "t.v"], cwd=tmp_path, env={"PATH": str(bin_dir)}, capture_output=True, text=True, timeout=120, check=False
    )
    assert r.returncode == 0, r.stdout + r.stderr
    # the second time the cached reconstruction is replayed; no ATP runs
    again = prove_goal(RocqSession, header, stmt, "rocq", budget, reconstructions=cache)
    assert again.proved and again.tags[-1] == "hammer-cached"
    assert again.checker_seconds < res.checker_seconds


@pytest.mark.slow
@pytest.mark.rocq
@pytest.mark.hammer
def test_the_default_fallback_runs_hammer_once_the_tactic_search_failed(tmp_path, monkeypatch):
    from lean_tools.rocq.session import RocqSession
    from prover.search import SearchBudget, prove_goal

    monkeypatch.chdir(tmp_path)
    # written for this test: with hammer off the search's lcm rewrites stop at a 5 s budget
    # without a proof; hammer finds `scongruence use: Nat.lcm_comm` (~45-65 s)
    stmt = "Theorem lcm_three (a b c : nat) : Nat.lcm a (Nat.lcm b c) = Nat.lcm (Nat.lcm c b) a."
    budget = SearchBudget(seconds=90, hammer="fallback", hammer_seconds=60)
    res = prove_goal(lambda h: RocqSession(h, extra_args=("-w", "-all")), "Require Import Arith.", stmt, "rocq", budget)
    assert res.proved, res.reason
    # If the tactic search proves it, the fallback is not exercised: this test then needs a
    # statement the search cannot prove.
    assert res.tags[-1] == "hammer", f"proved without the fallback ({res.tags}): pick a statement the tactic search fails on"
    assert TACTICS_IMPORT in res.proof and "hammer" not in res.proof.replace(TACTICS_IMPORT, "")


@pytest.mark.rocq
def test_an_srun_reconstruction_as_printed_replays_once_parenthesised(tmp_path, monkeypatch):
    from lean_tools.rocq.session import RocqSession
    from prover.search.hammer import replay

    monkeypatch.chdir(tmp_path)
    s = RocqSession("Require Import Arith.", extra_args=("-w", "-all"))
    s.start()
    try:
        out = s.run_command("Theorem swap_sum (a b : nat) : a + b = b + a.\nProof.", timeout=60)
        printed = "Replace the hammer tactic with:\n\tsrun eauto use: Nat.add_comm.\n"
        res = replay(s, out.holes[0].state, parse_reconstruction(printed))
        assert res.proved, res.reason
        assert res.reconstruction == "srun (eauto) use: Nat.add_comm"
    finally:
        s.close()


def test_agents_get_the_hammer_tool_only_when_checks_load_its_tactics():
    from prover import tools
    from prover.config import ProverConfig

    cfg = ProverConfig()
    assert tools.HAMMER not in tools.agent_tools(cfg, "rocq")
    opted = cfg.with_overrides(prover__allowed_requires=(*cfg.prover.allowed_requires, "Hammer.Tactics"))
    assert tools.HAMMER in tools.agent_tools(opted, "rocq")
    assert tools.HAMMER not in tools.agent_tools(opted, "lean")
    assert "hammer" in tools.SERVED
