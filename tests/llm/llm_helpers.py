"""Helpers for the ``llm`` tier (imported by its conftest and tests)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def tool_path(name: str) -> str:
    path = BIN / name
    return str(path) if path.exists() else name


def pids_alive(pids: list[int]) -> list[int]:
    import psutil

    out = []
    for pid in pids:
        try:
            p = psutil.Process(pid)
            if p.status() != psutil.STATUS_ZOMBIE:
                out.append(pid)
        except psutil.NoSuchProcess:
            pass
    return out


def session_processes(sid: int) -> list[int]:
    """Live processes whose session id is ``sid`` (what a command started with
    ``start_new_session=True`` left behind)."""
    import psutil

    out = []
    for p in psutil.process_iter(["pid", "status"]):
        try:
            if os.getsid(p.pid) == sid and p.info["status"] != psutil.STATUS_ZOMBIE:
                out.append(p.pid)
        except (ProcessLookupError, PermissionError, psutil.Error):
            continue
    return out
