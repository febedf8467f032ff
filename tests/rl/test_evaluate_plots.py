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
