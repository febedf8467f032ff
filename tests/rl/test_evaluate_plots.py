"""pass@k estimator by hand; figures from a run directory."""

import pytest
from rl_helpers import RuleVerifier
from test_loop import cfg

from rl.evaluate import pass_at_k
from rl.loop import train


def test_pass_at_k_by_hand():
    # n=4, c=1: pass@1 = 1/4; pass@2 = 1 - C(3,2)/C(4,2) = 1 - 3/6 = 0.5; pass@4 = 1
    assert pass_at_k(4, 1, 1) == pytest.approx(0.25)
    assert pass_at_k(4, 1, 2) == pytest.approx(0.5)
    assert pass_at_k(4, 1, 4) == 1.0
    assert pass_at_k(4, 0, 2) == 0.0 and pass_at_k(4, 4, 1) == 1.0
    with pytest.raises(ValueError):
        pass_at_k(2, 1, 3)


def test_plots_from_a_run(tmp_path):
    from rl.plots import main, plot

    train(cfg(trainer__steps=2, async__mode="async", async__sync_steps=1), tmp_path, verifier=RuleVerifier(),
          log=lambda *_: None)
    paths = plot(tmp_path, tmp_path / "fig")
    assert [p.name for p in paths] == ["learning_curve.png", "time_split.png"]
    assert all(p.stat().st_size > 1000 for p in paths)
    assert main([str(tmp_path / "nothing")]) == 2


def test_evaluate_temperature_override(tmp_path, capsys):
    from rl.evaluate import main, sweep

    train(cfg(trainer__steps=1), tmp_path, verifier=RuleVerifier(), log=lambda *_: None)
    cold = sweep(tmp_path, 4, [1, 4], temperature=1e-6, verifier=RuleVerifier())
    assert cold["temperature"] == 1e-6 and (tmp_path / "passk_T1e-06.json").is_file()
    # greedy in effect: the 4 samples of a problem agree, so pass@4 = pass@1
    for label in ("init", "trained"):
        assert cold[label]["pass@4"] == pytest.approx(cold[label]["pass@1"])
    assert main([str(tmp_path), "--samples", "2", "--ks", "1", "--temperature", "0"]) == 2
    assert "--temperature must be > 0" in capsys.readouterr().err
