"""Number theory: remainders, divisibility, gcd and lcm, and closed computations on integers.

What is covered: ``E mod m`` with the remainders of the variables known (the remainder pushed to
the leaves and computed), ``k | E`` as ``E mod k = 0``; the division equation and remainder bound
of each ``X mod K`` / ``X / K`` for ``lia``; closed ``nat``/``Z`` goals with powers and remainders
computed in binary (``Z``); one Euclid step on ``gcd`` of two linear forms; ``x`` and ``y``
written as multiples of a known ``gcd x y`` (the ``gcd * lcm = x * y`` argument); ``Nat.divide``
and ``Z.divide`` unfolded; big ``nat`` numerals moved to binary.
What is not covered: case splits on remainders (``cases.py``), primality, modular inverses.
"""

from __future__ import annotations

import math
import re

from .family import Focus, close, family, step
from .goal import Candidate, GoalInfo, Quotients, is_eq, leading_arg, operand_before

DOMAIN = "number theory"


_Z_MOD_POW = (
    "try rewrite BinInt.Z.add_mod by lia; try rewrite BinInt.Z.mul_mod by lia; "
    "rewrite <- ?Zpow_facts.Zpow_mod_correct by lia; vm_compute; reflexivity"
)


Z_COMPUTE = _Z_MOD_POW
"""A closed ``Z`` equation, with ``a ^ b mod n`` computed by binary modular exponentiation.
``Znat``, ``BinInt`` and ``Zpow_facts`` come loaded (not imported) with ``ROCQ_IMPORTS``' Psatz,
hence the qualified names: importing ``Zpow_facts`` would open ``Z_scope``."""


_NAT_TO_Z = (
    "apply Znat.Nat2Z.inj; repeat progress rewrite ?Znat.Nat2Z.inj_mod, ?Znat.Nat2Z.inj_div, ?Znat.Nat2Z.inj_pow, "
    "?Znat.Nat2Z.inj_mul, ?Znat.Nat2Z.inj_add"
)
"""A ``nat`` equation moved to ``Z``, the casts pushed to the leaves (outermost operation first,
repeated until nothing changes: ``(a + b) ^ 2`` needs ``inj_add`` after ``inj_pow``)."""


NAT_COMPUTE = _NAT_TO_Z + "; " + _Z_MOD_POW
"""A closed ``nat`` equation moved to ``Z`` (binary numbers): ``(13 ^ 41 + 7 ^ 77) mod 10 = 0`` is
out of reach of unary ``nat`` computation, not of ``Z``'s."""


def _mod_guard(op: str) -> str:
    """``rewrite`` of ``(a OP b) mod m`` into the operands' remainders, unless both already are
    remainders or numerals (a numeral's remainder is computed by its own rule)."""
    lemma = {"add": "BinInt.Z.add_mod a b m) by lia", "sub": "Zdiv.Zminus_mod a b m)", "mul": "BinInt.Z.mul_mod a b m) by lia"}[op]
    reduced = "BinInt.Z.modulo _ m => {} | BinNums.Zpos _ => {} | BinNums.Zneg _ => {} | BinNums.Z0 => {} | _ => idtac"
    both = f"lazymatch b with {reduced.format(*['fail'] * 4)} end"
    return (
        f"| |- context [ BinInt.Z.modulo (BinInt.Z.{op} ?a ?b) ?m ] => "
        f"lazymatch a with {reduced.format(*[both] * 4)} end; rewrite ({lemma} "
    )


Z_MOD_PUSH = (
    "repeat match goal with "
    "| |- context [ BinInt.Z.modulo (BinInt.Z.modulo ?a ?m) ?m ] => rewrite (BinInt.Z.mod_mod a m) by lia "
    + _mod_guard("add") + _mod_guard("sub") + _mod_guard("mul")
    + "| |- context [ BinInt.Z.modulo (BinInt.Z.pow ?a ?b) ?m ] => "
    "lazymatch a with BinInt.Z.modulo _ m => fail | BinNums.Z0 => fail "
    "| BinNums.Zpos _ => lazymatch eval vm_compute in (BinInt.Z.ltb a m) with true => fail | false => idtac end "
    "| _ => idtac end; rewrite (Zpow_facts.Zpower_mod a b m) by lia "
    "| |- context [ BinInt.Z.modulo (BinNums.Zpos ?a) (BinNums.Zpos ?m) ] => "
    "let r := eval vm_compute in (BinInt.Z.modulo (BinNums.Zpos a) (BinNums.Zpos m)) in "
    "change (BinInt.Z.modulo (BinNums.Zpos a) (BinNums.Zpos m)) with r "
    "| |- context [ BinInt.Z.pow BinNums.Z0 ?n ] => rewrite (BinInt.Z.pow_0_l n) by lia "
    "| |- context [ BinInt.Z.pow (BinNums.Zpos BinNums.xH) ?n ] => rewrite (BinInt.Z.pow_1_l n) by lia "
    "| H : BinInt.Z.modulo ?v ?m = _ |- context [ BinInt.Z.modulo ?v ?m ] => rewrite H "
    "end; first [vm_compute; reflexivity | lia]"
)
"""``E mod m`` with the remainders of the variables known (``x mod 11 = 6``): push ``mod m``
down to the leaves (``Z.add_mod``, ``Z.mul_mod``, ``Zpower_mod``), put in the known remainders,
compute. Each rewrite is guarded so that it fires once per node; remainders of numerals are
computed on the way (``4 ^ n mod 2`` becomes ``0 ^ n mod 2``, then ``0`` when ``n > 0``)."""


NAT_MOD_PUSH = (
    "repeat match goal with H : Nat.modulo _ _ = _ |- _ => apply (f_equal BinInt.Z.of_nat) in H; "
    "rewrite Znat.Nat2Z.inj_mod in H end; " + _NAT_TO_Z + "; "
    "cbn [BinInt.Z.of_nat BinPos.Pos.of_succ_nat BinPos.Pos.succ] in *; " + Z_MOD_PUSH
)
"""The same for ``nat``: hypotheses ``x mod k = r`` and the goal moved to ``Z`` first (casts of
numerals become ``Z`` numerals on both sides, so the rewrites still match)."""


NAT_DIVIDE_PUSH = "match goal with |- Nat.divide ?k ?e => apply (Nat.mod_divide e k ltac:(lia)) end; " + NAT_MOD_PUSH


Z_DIVIDE_PUSH = "match goal with |- BinInt.Z.divide ?k ?e => apply (BinInt.Z.mod_divide e k ltac:(lia)) end; " + Z_MOD_PUSH
"""``k | E`` as ``E mod k = 0``, then the remainder push."""


_ARITH_WORDS = re.compile(r"\b(?:mod|Nat\.(?:modulo|pow|div|add|mul)|Z\.(?:modulo|pow|div|add|mul)|nat|Z)\b")


def closed_arith(concl: str) -> bool:
    """Numerals and arithmetic only (no variables, no big-numeral ``of_num_uint`` terms)."""
    rest = _ARITH_WORDS.sub(" ", concl.replace("%nat", " ").replace("%Z", " "))
    return bool(re.search(r"\d", rest)) and not re.search(r"[A-Za-z_]", rest) and bool(re.search(r"\^|\bmod\b|modulo|/", concl))


def nat_divmod_hints(g: GoalInfo, limit: int = 6) -> list[str]:
    """``pose proof`` of the division equation and remainder bound for each ``X mod K`` / ``X / K``
    with a numeral ``K`` (lia does not know ``Nat.modulo`` in Coq 8.16)."""
    out: list[str] = []
    seen: set[tuple[str, str]] = set()
    text = " ".join(g.all_text.split())
    for m in re.finditer(r"\s(mod|/)\s+(\d+)\b", text):
        x = operand_before(text, m.start())
        # A nat power would be computed in unary; a closed operand is the compute closers' job
        # (its equation made `lia` hang for 11 s on a closed operand such as `(31 * 44) mod 53`).
        if not x or "^" in x or not re.search(r"[A-Za-z_]", x) or (x, m.group(2)) in seen:
            continue
        seen.add((x, m.group(2)))
        k = m.group(2)
        out.append(f"pose proof (Nat.div_mod {x} {k} ltac:(lia))")
        out.append(f"pose proof (Nat.mod_upper_bound {x} {k} ltac:(lia))")
    return out[: 2 * limit]


def _linear_form(text: str) -> tuple[int, str, int] | None:
    """``(a, n, b)`` for ``(a * n + b)`` or ``(n + b)``."""
    m = re.fullmatch(r"\(\s*(?:(\d+)\s*\*\s*)?([A-Za-z_]\w*)\s*\+\s*(\d+)\s*\)", text.strip())
    return (int(m.group(1) or 1), m.group(2), int(m.group(3))) if m else None


def linear_gcd_steps(g: GoalInfo) -> list[str]:
    """``gcd (a n + b) (c n + d)`` divides the constant that a combination ``u X - v Y`` leaves
    (``u a = v c``): one Euclid step on linear forms, ``gcd (10 n + 3) (15 n + 4) | 1``."""
    text = " ".join(g.concl.split())
    m = re.match(r"^(?:Nat\.)?gcd\s+", text)
    x = leading_arg(text[m.end() :]) if m else None
    y = leading_arg(text[m.end() + len(x) :].lstrip()) if m and x else None
    fx, fy = (_linear_form(x), _linear_form(y)) if x and y else (None, None)
    if not fx or not fy or fx[1] != fy[1]:
        return []
    (a, _, b), (c, _, e) = fx, fy
    k = math.gcd(a, c)
    u, v = c // k, a // k
    const = u * b - v * e
    if const == 0:
        return []
    first, second, big, small = (x, y, u, v) if const > 0 else (y, x, v, u)
    sides = ["apply Nat.gcd_divide_l", "apply Nat.gcd_divide_r"] if const > 0 else ["apply Nat.gcd_divide_r", "apply Nat.gcd_divide_l"]
    comb = f"{big} * {first} - {small} * {second}"
    k_abs = abs(const)
    tac = (
        f"assert (Hg_ : Nat.divide (Nat.gcd {x} {y}) ({comb})) by (apply Nat.divide_sub_r; apply Nat.divide_mul_r; [{' | '.join(sides)}]); "
        f"replace ({comb}) with {k_abs} in Hg_ by lia; "
    )
    tac += "apply Nat.divide_1_r in Hg_" if k_abs == 1 else f"pose proof (Nat.divide_pos_le _ {k_abs} ltac:(lia) Hg_)"
    return [tac]


def gcd_lcm_steps(g: GoalInfo, limit: int = 2) -> list[tuple[str, tuple[str, str]]]:
    """With ``gcd x y = v`` known: ``x`` and ``y`` written as multiples of ``v`` (``gcd_divide``),
    and ``lcm x y`` unfolded to ``x * (y / v)``, the product argument ``gcd * lcm = x * y`` that
    gcd/lcm problems rest on, left to ``lia``/``nia`` and the case splits. Each step comes with
    the names of the two quotient variables it introduces."""
    out: list[tuple[str, tuple[str, str]]] = []
    names = set(g.hyp_names())
    for h in g.hyps:
        m = re.match(r"^(Nat|Z)\.gcd\s+(\w+)\s+(\w+)\s*=\s*(.+?)\s*$", h.type.replace("%nat", "").replace("%Z", ""))
        if not m or len(out) >= limit:
            continue
        dom, x, y, v = m.groups()
        hn, i, scope = h.names[0], len(out), "nat" if dom == "Nat" else "Z"
        parts = [
            # rewritten before `destruct`: on `Nat.gcd 210 b` itself the unfolding costs ~0.7 s
            f"pose proof ({dom}.gcd_divide_l {x} {y}) as Hql{i}_",
            f"pose proof ({dom}.gcd_divide_r {x} {y}) as Hqr{i}_",
            f"rewrite {hn} in Hql{i}_, Hqr{i}_",
            f"destruct Hql{i}_ as [ql{i}_ Hql{i}_]",
            f"destruct Hqr{i}_ as [qr{i}_ Hqr{i}_]",
        ]
        if re.search(rf"\b{dom}\.lcm\b", g.all_text):
            parts += [f"unfold {dom}.lcm in *", f"rewrite ?{hn} in *"]
            if y.isdigit() and v.isdigit() and int(v) and int(y) % int(v) == 0:
                parts.append(f"change (({y} / {v})%{scope}) with ({int(y) // int(v)}%{scope}) in *")
        parts += [f"subst {a}" for a in dict.fromkeys((x, y)) if a in names]
        parts.append(f"rewrite ?{dom}.div_mul in * by lia")
        lcm = next((int(k.group(1)) for t in g.hyps if (k := re.fullmatch(rf"{dom}\.lcm\s+{x}\s+{y}\s*=\s*(\d+)", t.type.strip()))), 0)
        if v.isdigit() and int(v) and lcm and lcm // int(v) <= 200:
            # the quotients multiply to lcm / gcd: bounds for a case split
            parts += [f"try assert ({q}{i}_ <= {lcm // int(v)}) by nia" for q in ("ql", "qr")]
        out.append(("; ".join(parts), (f"ql{i}_", f"qr{i}_")))
    return out


@family("mod-push", DOMAIN, "close")
def mod_push(f: Focus) -> list[Candidate]:
    """``E mod m = r`` with remainders of the variables among the hypotheses (``x mod 7 = 3``),
    or a power under ``mod``, and ``k | E``: over one number domain (``nat`` or ``Z``), the
    remainder pushed to the leaves, the known remainders put in, the rest computed."""
    g, d, concl = f.g, f.d, f.concl
    push = {(True, False): (NAT_MOD_PUSH, NAT_DIVIDE_PUSH), (False, True): (Z_MOD_PUSH, Z_DIVIDE_PUSH)}.get((d.natural, d.integer))
    if not push or d.real:
        return []
    out = []
    hyp_mod = re.search(r"\bmod\b", " ".join(h.type for h in g.hyps))
    closed = not g.hyps and closed_arith(concl)  # the compute closers' job
    if not closed and is_eq(concl) and re.search(r"\bmod\b", concl) and (hyp_mod or "^" in concl):
        out.append(Candidate(tactic=push[0], kind="close", timeout=2, tag="mod-push"))
    if re.match(r"^\(?(?:Nat\.divide|Z\.divide)\b|^\(\s*\d+\s*\|", concl):
        out.append(Candidate(tactic=push[1], kind="close", timeout=2, tag="mod-push"))
    return out


@family("nat-mod", DOMAIN, "close")
def nat_mod(f: Focus) -> list[Candidate]:
    """A ``nat`` goal with ``X mod K`` or ``X / K`` (``K`` a numeral): ``lia`` does not know
    ``Nat.modulo`` in Coq 8.16, so each one's division equation and remainder bound is given."""
    if not (f.d.natural and not f.d.real and re.search(r"\bmod\b|/", f.g.all_text)):
        return []
    hints = nat_divmod_hints(f.g)
    return [close("; ".join(hints) + "; lia", 2, tag="nat-mod")] if hints else []


@family("z-mod", DOMAIN, "close")
def z_mod(f: Focus) -> list[Candidate]:
    """A ``Z`` goal with ``mod`` or ``/``: ``Z.div_mod_to_equations`` names every quotient and
    remainder with its bounds, then ``lia``."""
    if f.d.integer and re.search(r"\bmod\b|/|Z\.div|Z\.modulo", f.g.all_text):
        return [close("Z.div_mod_to_equations; lia", 2, tag="z-mod")]
    return []


def _closed_equation(f: Focus) -> bool:
    return not f.g.hyps and is_eq(f.concl) and closed_arith(f.concl) and not f.d.real


@family("nat-compute", DOMAIN, "close")
def nat_compute(f: Focus) -> list[Candidate]:
    """A closed ``nat`` equation with powers or remainders (``(7 ^ 20 + 3) mod 10 = 4``): moved
    to ``Z`` and computed there (binary numbers, modular exponentiation), out of reach in unary."""
    if _closed_equation(f) and f.d.natural and not f.d.integer:
        return [Candidate(tactic=NAT_COMPUTE, kind="close", timeout=3, tag="nat-compute")]
    return []


@family("z-compute", DOMAIN, "close")
def z_compute(f: Focus) -> list[Candidate]:
    """A closed ``Z`` equation with powers or remainders: computed with ``a ^ b mod n`` by binary
    modular exponentiation."""
    if _closed_equation(f) and f.d.integer:
        return [Candidate(tactic=Z_COMPUTE, kind="close", timeout=3, tag="z-compute")]
    return []


@family("unfold-divide", DOMAIN, "step")
def unfold_divide(f: Focus) -> list[Candidate]:
    """``k | E`` (``Nat.divide``/``Z.divide``) in sight: unfolded to ``exists q, E = q * k`` for the
    witness and arithmetic families (one name per domain in sight: an absent one fails the step)."""
    if not re.search(r"\b(?:Nat|Z)\.divide\b|\(\s*\d+\s*\||\(\s*[A-Za-z_]\w*\s*\|\s", f.g.all_text):
        return []
    names = ", ".join(n for n, ok in (("Nat.divide", f.d.natural), ("Z.divide", f.d.integer)) if ok)
    return [step(f"unfold {names} in *", 0.3, tag="unfold-divide")] if names else []


@family("gcd-linear", DOMAIN, "step")
def gcd_linear(f: Focus) -> list[Candidate]:
    """``gcd (a n + b) (c n + d)`` over ``nat``: it divides the constant a combination of the two
    forms leaves (one Euclid step), so it is 1 or bounded (``gcd (10 n + 3) (15 n + 4) | 1``)."""
    return [step(t, 0.3, tag="gcd-linear") for t in linear_gcd_steps(f.g)] if f.d.natural else []


@family("gcd-lcm", DOMAIN, "step")
def gcd_lcm(f: Focus) -> list[Candidate]:
    """A hypothesis ``gcd x y = v``: ``x`` and ``y`` as ``v`` times new quotients (recorded as a
    ``Quotients`` fact for the bounded case splits), ``lcm`` unfolded to ``x * (y / v)``. Once per
    path: a goal whose path already has the fact gets nothing."""
    if f.facts_of(Quotients):
        return []
    return [step(t, 0.3, tag="gcd-lcm", facts=(Quotients(names=names),)) for t, names in gcd_lcm_steps(f.g)]


@family("big-nat", DOMAIN, "step")
def big_nat(f: Focus) -> list[Candidate]:
    """A ``nat`` goal with numerals >= 5000 (printed as ``of_num_uint`` terms, unary underneath):
    each such numeral changed to ``Z.to_nat`` of a binary one, so arithmetic stays cheap."""
    d, ctx = f.d, f.ctx
    if not (d.natural and not d.real and ctx.big_numbers and "of_num_uint" in f.g.all_text):
        return []
    changes = "; ".join(f"change {n} with (Z.to_nat {n}%Z) in *" for n in ctx.big_numbers[:6])
    # `change` re-checks the unary numeral: ~1 s for a numeral near 40000, so a 1 s limit was flaky.
    return [Candidate(tactic=changes, prelude="From Coq Require Import ZArith.", kind="step", timeout=4, cost=0.2, tag="big-nat")]
