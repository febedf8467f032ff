import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
for p in (str(ROOT), str(Path(__file__).resolve().parent)):
    if p not in sys.path:
        sys.path.insert(0, p)


@pytest.fixture(scope="session")
def pool():
    from lean_tools.pool import SessionPool

    p = SessionPool(max_sessions=3)
    yield p
    p.close()


@pytest.fixture
def agent_config(tmp_path):
    from prover.config import load_config

    return load_config(
        env={},
        model__type="openai",
        prover__workers=1,
        prover__direct_search_first=False,
        prover__automation_first=False,
        prover__cache_path=str(tmp_path / "cache.sqlite"),
        budget__wall_s=120.0,
        # One unjudged informal proof, as these tests script it (tests/prover/test_informal*.py
        # cover the informal loop).
        informal__n=1,
        informal__verify=False,
    )
