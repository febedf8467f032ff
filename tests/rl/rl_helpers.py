"""Test helpers: a rule-based reward for tests that exercise the loop without a proof assistant.

``RuleVerifier`` is a plain reward callable (rewards are plain callables in ``rl``): it accepts
exactly the script listed per family. It stands in for nothing at run time - the job uses
``rl.verifier.Verifier`` unless a caller passes another one - and the Rocq-backed path has its
own tests (``test_verifier.py``, ``test_cli_rocq``).
"""

import threading

from rl.records import Verdict

ANSWERS = {"eval_nat": "reflexivity.", "lin_nat": "lia.", "lin_z": "lia.", "ring_q": None, "taut": "tauto.",
           "conj": None}


class RuleVerifier:
    def __init__(self, answers=None, fail_on=None):
        self.answers = answers or ANSWERS
        self.fail_on = fail_on
        self.fresh_checks = 0
        self.cache_hits = 0
        self.lock = threading.Lock()

    def progress(self, problem, script):
        """Test stand-in for goal credit: 0.5 when the script starts like the witness."""
        want = self.answers.get(problem.family) or problem.witness
        return 0.5 if script and want.split()[0] == script.split()[0] else 0.0

    def verdict(self, problem, script):
        if self.fail_on is not None and script == self.fail_on:
            raise RuntimeError("checker exploded")
        with self.lock:
            self.fresh_checks += 1
        want = self.answers.get(problem.family)
        ok = script == (want if want is not None else problem.witness)
        return Verdict(accepted=ok, reason="ok" if ok else f"expected another script than {script!r}",
                       source="rule", fresh_checks=1)




class ForcedSampler:
    """A sampler test double: turn t of an episode emits the script ``scripts[t - 1]`` (the last
    one again after that), t read from the prompt's ``(* tried:`` lines. Every token's log-prob
    is -1.0; completions end with the end token."""

    def __init__(self, scripts, version=0):
        from rl.policy import ACTIONS

        self.actions = [tuple(ACTIONS.index(t.strip() + ".") for t in s.split(".") if t.strip()) for s in scripts]
        self.version = version
        self.prompts = []

    def sample(self, prompts, version=None, seed=None):
        from rl.action_samplers import Completion

        self.prompts.extend(prompts)
        out = []
        for p in prompts:
            acts = self.actions[min(p.count("(* tried:"), len(self.actions) - 1)]
            out.append(Completion(acts, (-1.0,) * (len(acts) + 1), True))
        return (self.version if version is None else version), out
