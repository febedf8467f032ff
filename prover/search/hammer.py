"""CoqHammer in the search: run ``hammer`` on a proof state, keep only its reconstruction.

What is covered: ``hammer`` runs in the search's warm Rocq session (``lean_tools.pool`` /
``lean_tools.rocq.session``) on one proof state. Its ATPs (``eprover``, ``cvc4``; ``z3_tptp``
and ``vampire`` are used when present) only *find* the library lemmas a proof needs; what is
kept is the reconstruction the plugin prints after "Replace the hammer tactic with:"
(``sauto use: ...``, ``hauto lq: on use: ...``, ``srun eauto use: ...``,
``scongruence use: ...``). That tactic is replayed on the same state before it counts, with
``From Hammer Require Import Tactics.`` (the reconstruction tactics only, no ATP, no plugin);
so the proof that is kept re-checks in a fresh ``coqc`` with no ATP installed and no
``hammer`` call. The soundness verdict allows exactly that import among a proof's helpers.

Cost: ``hammer`` is slow (feature extraction, then the ATPs with ``ATPLimit`` seconds each,
then reconstruction): 20-60 s on 2 shared cores, most of it failing. Its CPU counts as
checker CPU: the ATPs run as children of coqtop and the session reads the CPU of coqtop's
whole process tree, waited-for children included.

Environment: the plugin calls ``htimeout`` and ``predict`` from ``/usr/libexec/coq-hammer``;
the Rocq session puts that directory on coqtop's ``PATH`` (``HAMMER_LIBEXEC``). Without the
ATPs (``apt-get install eprover z3 cvc4``, done by ``make``) ``hammer_missing`` names what is
missing and the hammer is not run.

Not covered: premise selection of our own; the plugin's own (k-NN / naive Bayes over the
loaded libraries) is used as is.
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from lean_tools.rocq.session import HAMMER_LIBEXEC
from lean_tools.types import InvalidRequest, SessionTimeout

PLUGIN_IMPORT = "From Hammer Require Import Hammer."
"""Loads the plugin (``hammer`` itself): only ever inside the search's session, never in a kept proof."""
TACTICS_IMPORT = "From Hammer Require Import Tactics."
"""The reconstruction tactics (``sauto``, ``hauto``, ``srun``...): the one Hammer import a kept proof may have."""

# The final period is optional: the plugin prints ``hauto use: X.`` but a bare tactic without one
# (coqtop's message for ``n <= m -> 2 * n <= 2 * m + 1`` is "Replace the hammer tactic with: sfirstorder").
_RECON = re.compile(r"Replace the hammer tactic with:\s*\n?(?P<tac>(?:.|\n)*?)\.?\s*(?:$|\n\s*\n|</infomsg>)")
_DEPS = re.compile(r"- dependencies:\s*(?P<deps>[^\n]*)")


class HammerSettings(BaseModel):
    """How one ``hammer`` call runs (each field is a ``Set Hammer`` option or a time limit)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seconds: float = 30.0
    """Wall-clock limit of the whole ``hammer`` call (``Timeout``), whole seconds."""
    atp_seconds: int = 10
    """``Set Hammer ATPLimit``: seconds each ATP may run."""
    reconstruct_seconds: int = 5
    """``Set Hammer ReconstrLimit``: seconds each reconstruction attempt may run."""
    threads: int = 2
    """``Set Hammer GSMode``: ATP runs in parallel (the plugin's default is 8; we have 2 cores)."""
    replay_seconds: float = 10.0
    """Limit on replaying the printed reconstruction on the state."""

    def block(self) -> str:
        """The sentences sent to the session: load the plugin, set its limits, run it."""
        return "\n".join(
            [
                PLUGIN_IMPORT,
                f"Set Hammer GSMode {max(1, self.threads)}.",
                f"Set Hammer ATPLimit {max(1, self.atp_seconds)}.",
                f"Set Hammer ReconstrLimit {max(1, self.reconstruct_seconds)}.",
                f"Timeout {max(1, int(self.seconds + 0.999))} hammer.",
            ]
        )


class HammerOutcome(BaseModel):
    """What one hammer run did. ``reconstruction`` is set only once it replayed on the state."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    proved: bool
    """The replayed reconstruction closed the focused goal."""
    reconstruction: str | None = None
    """The tactic to keep (no final period), e.g. ``sauto use: Nat.add_comm``."""
    dependencies: tuple[str, ...] = ()
    """The lemmas the ATP used (as the plugin names them)."""
    state: int | None = None
    """The session state after the replayed reconstruction."""
    goals: tuple[str, ...] = ()
    """Goals left after the replay (the other goals of the proof)."""
    seconds: float = 0.0
    """Wall seconds of the hammer call plus the replay."""
    reason: str = ""
    """``proved``, ``cached``, ``no proof found``, ``timeout``, ``replay failed: ...``, ``missing: ...``."""


def hammer_missing() -> str:
    """What ``hammer`` needs that this machine lacks ("" when it can run): ``htimeout`` in
    ``HAMMER_LIBEXEC`` (Debian's ``libcoq-hammer``) and at least one ATP on ``PATH``."""
    missing = []
    if not (Path(HAMMER_LIBEXEC) / "htimeout").exists() and shutil.which("htimeout") is None:
        missing.append(f"{HAMMER_LIBEXEC}/htimeout (apt-get install libcoq-hammer)")
    if not any(shutil.which(p) for p in ("eprover", "cvc4", "z3_tptp", "vampire")):
        missing.append("an ATP: eprover, cvc4, z3_tptp or vampire (apt-get install eprover z3 cvc4)")
    return "; ".join(missing)


def parse_reconstruction(text: str) -> str | None:
    """The tactic printed after "Replace the hammer tactic with:" (no final period), on one line.
    ``srun T use: L`` is given as ``srun (T) use: L``: the plugin prints it bare, which Coq 8.16
    with this CoqHammer does not parse (``srun eauto use: x`` is a syntax error, with or without
    the plugin loaded; ``srun (eauto) use: x`` runs)."""
    m = _RECON.search(text)
    if not m:
        return None
    tac = " ".join(m.group("tac").split())
    srun = re.fullmatch(r"srun\s+(?P<inner>[^(].*?)\s+use:(?P<rest>.*)", tac)
    if srun:
        tac = f"srun ({srun.group('inner')}) use:{srun.group('rest')}"
    return tac or None


def parse_dependencies(text: str) -> tuple[str, ...]:
    """The lemma names of the ATP's proof ("- dependencies: A, B"), in order, without repeats."""
    m = _DEPS.search(text)
    if not m:
        return ()
    return tuple(dict.fromkeys(d.strip() for d in m.group("deps").split(",") if d.strip()))


def replay_block(reconstruction: str, seconds: float) -> str:
    """The sentences that replay ``reconstruction`` on a state (the Tactics import is a no-op
    once loaded; inside the session only, the kept proof has it above the theorem)."""
    # Unparenthesised: a reconstruction with ``use:`` may not parse as ``(tac)``; it runs as a whole sentence.
    return f"{TACTICS_IMPORT}\nTimeout {max(1, int(seconds + 0.999))} {reconstruction}."


def _info_text(outcome) -> str:
    """The plugin's messages, one per paragraph: a reconstruction never runs into the next
    message (such as the shell's "vampire: not found" that follows it)."""
    return "\n\n".join(m.text.strip() for m in getattr(outcome, "messages", ()))


def replay(
    session, state: int, reconstruction: str, settings: HammerSettings | None = None, *, goals_before: int = 1, reason: str = "proved"
) -> HammerOutcome:
    """Replay ``reconstruction`` on ``state`` (which has ``goals_before`` goals); ``proved``
    when it closed the focused goal (fewer goals after it, or none left)."""
    settings = settings or HammerSettings()
    t0 = time.monotonic()
    try:
        out = session.run_tactic(state, replay_block(reconstruction, settings.replay_seconds), timeout=settings.replay_seconds + 5)
    except SessionTimeout:
        return HammerOutcome(proved=False, reconstruction=None, seconds=time.monotonic() - t0, reason="replay failed: timeout")
    except InvalidRequest as e:
        return HammerOutcome(proved=False, seconds=time.monotonic() - t0, reason=f"replay failed: {e}")
    dt = time.monotonic() - t0
    if not out.ok:
        err = out.errors[0].text if out.errors else "error"
        return HammerOutcome(proved=False, seconds=dt, reason=f"replay failed: {err[:200]}")
    closed = out.proved or len(out.goals) < goals_before
    if not closed:
        return HammerOutcome(proved=False, seconds=dt, reason="replay failed: the goal is still open")
    return HammerOutcome(proved=True, reconstruction=reconstruction, state=out.state, goals=tuple(out.goals), seconds=dt, reason=reason)


def run_hammer(session, state: int, settings: HammerSettings | None = None, *, goals_before: int = 1) -> HammerOutcome:
    """Run ``hammer`` on ``state`` of ``session`` (a ``RocqSession``), then replay what it
    printed on the same state. Every failure is a value: no ATP (``missing: ...``), nothing
    found, a timeout, a reconstruction that does not replay. Only a dead session raises."""
    settings = settings or HammerSettings()
    missing = hammer_missing()
    if missing:
        return HammerOutcome(proved=False, reason=f"missing: {missing}")
    t0 = time.monotonic()
    try:
        out = session.run_tactic(state, settings.block(), timeout=settings.seconds + 8)
    except SessionTimeout:
        return HammerOutcome(proved=False, seconds=time.monotonic() - t0, reason="timeout")
    except InvalidRequest as e:
        return HammerOutcome(proved=False, seconds=time.monotonic() - t0, reason=f"refused: {e}")
    spent = time.monotonic() - t0
    text = _info_text(out)
    recon = parse_reconstruction(text)
    if recon is None:
        err = out.errors[0].text if out.errors else ""
        why = "timeout" if "Timeout" in err else ("no proof found" if not err or "failed" in err.lower() else err[:200])
        return HammerOutcome(proved=False, seconds=spent, reason=why)
    rep = replay(session, state, recon, settings, goals_before=goals_before)
    return rep.model_copy(update={"seconds": spent + rep.seconds, "dependencies": parse_dependencies(text)})
