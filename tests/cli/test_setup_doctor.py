"""prover-doctor and prover-setup behave as documented without network or Lean."""

from __future__ import annotations

import json

from prover.commands import doctor
from prover.commands import setup as setup_cli


def test_doctor_json_reports_rocq_and_lean(capsys):
    rc = doctor.main(["--json"])
    data = json.loads(capsys.readouterr().out)
    names = {i["name"]: i for i in data["items"]}
    assert "rocq (coqc/coqtop)" in names and "lean (elan/lake)" in names
    assert rc == (0 if data["usable"] else 1)
    for item in data["items"]:
        assert item["ok"] or item["blocks"], f"missing {item['name']} must say what it blocks"


def test_setup_lean_without_network_stops_cleanly(monkeypatch, capsys):
    monkeypatch.setattr(setup_cli, "_reachable", lambda *a, **k: False)
    ran = []
    monkeypatch.setattr(setup_cli, "_run", lambda *a, **k: ran.append(a) or 0)
    assert setup_cli.main(["lean"]) == 2
    assert "cannot reach github.com" in capsys.readouterr().err
    assert ran == [], "nothing may be run when the network is missing"
