"""Per-language tactic tables for the built-in default prover.

What is covered: reading a goal's printed text (hypotheses + conclusion), guessing its
number domain (nat / Z / R), and proposing candidates: *closers* (tactics expected to finish
the focused goal: ``lia``, ``lra``, ``nra``/``psatz`` with hints, ``field``, division/modulo
equations for ``nat``, a real-and-imaginary-parts split for Coquelicot ``C`` ...) and *steps*
(tactics that transform it: ``intros``, ``split``, destructing conjunctions, rewriting with
function-defining hypotheses, ``field_simplify_eq in H``, ``Rabs`` case splits, bounded case
splits, induction ...).
Each candidate carries a timeout and a prior cost; the search (``search.py``) orders work
by those costs.

What is not covered: anything learned. The tables are hand-written; which ones pay off was
measured on the miniF2F *valid* split only. Lean 4 shares the code path with its own table,
but no Lean toolchain exists on our machines, so its table is tested only as text.

Limits: goal parsing is line based and heuristic. A misparsed goal only costs a few
useless candidates, never a wrong proof: every proof is re-checked by a fresh checker.
"""

from __future__ import annotations

import math
import re

from .goal import (
    _NAME,
    Candidate,
    Domain,
    GoalInfo,
    ProblemContext,
)

# --- Rocq ---------------------------------------------------------------------------------

def _rocq_closers(g: GoalInfo, d: Domain, depth: int) -> list[Candidate]:
    """Closers, cheapest and most often useful first.

    Kept or dropped by their record on the miniF2F *valid* split (attempts, seconds, proofs
    they ended): ``nsatz``, ``psatz Z``, ``simpl; nia`` and ``interval`` ended
    no valid proof for their cost and are out; low-yield ones run at the root only.
    """
    c: list[Candidate] = []
    concl = g.concl
    root = depth == 0
    add = lambda tac, t=1.0, cost=0.0, tag="": c.append(
        Candidate(tactic=tac, kind="close", timeout=t, cost=cost, tag=tag or tac.split()[0])
    )
    add("reflexivity", 1, tag="refl")
    if d.natural or d.integer:
        add("lia", 2)
    if d.real:
        add("lra", 2)
    if d.real and _is_eq(concl):
        add("field", 1)
    if not root and _is_eq(concl):
        add("ring", 1)
    if d.natural or d.integer:
        add("nia", 2)
    if d.real:
        add("nra", 2)
    if root:
        add("tauto", 1)
        add("congruence", 1)
    if not g.hyps:
        add("vm_compute; reflexivity", 2, tag="vm_compute")
    if d.real and _nonlinear(g):
        add("psatz R 2", 2, tag="psatz")
        hints = _vertex_hints(g)
        if hints:
            add("; ".join(hints) + "; nra", 2, tag="vertex-nra")
    if d.real and root:
        hints = _square_hints(g)
        if hints:
            add("; ".join(hints) + "; nra", 2, tag="nra-hint")
        if d.division:
            add("field_simplify; nra", 2, tag="fsimp-nra")
    hyp_mod = re.search(r"\bmod\b", " ".join(h.type for h in g.hyps))
    closed = not g.hyps and _closed_arith(concl)  # the compute closers' job
    # one number domain only: nat or Z (the push moves nat to Z itself)
    push = {(True, False): (NAT_MOD_PUSH, NAT_DIVIDE_PUSH), (False, True): (Z_MOD_PUSH, Z_DIVIDE_PUSH)}.get((d.natural, d.integer))
    if push and not d.real:
        if not closed and _is_eq(concl) and re.search(r"\bmod\b", concl) and (hyp_mod or "^" in concl):
            c.append(Candidate(tactic=push[0], kind="close", timeout=2, tag="mod-push"))
        if re.match(r"^\(?(?:Nat\.divide|Z\.divide)\b|^\(\s*\d+\s*\|", concl):
            c.append(Candidate(tactic=push[1], kind="close", timeout=2, tag="mod-push"))
    if d.natural and not d.real and re.search(r"\bmod\b|/", g.all_text):
        hints = _nat_divmod_hints(g)
        if hints:
            add("; ".join(hints) + "; lia", 2, tag="nat-mod")
    if d.integer and re.search(r"\bmod\b|/|Z\.div|Z\.modulo", g.all_text):
        add("Z.div_mod_to_equations; lia", 2, tag="z-mod")
    m = re.fullmatch(r"\(?([A-Za-z_]\w*) = (\d+)\)?(%nat|%Z)?", concl.strip())
    if d.real and m and m.group(1) in g.vars_of("nat", "Z"):
        v = re.escape(m.group(1))
        # a nat/Z unknown known only through its real cast: compare the casts (n = 502 from INR n = 502)
        if re.search(rf"\b(?:INR|IZR|Z\.of_nat|Z_of_nat)\s+{v}\b", g.all_text):
            nat = m.group(1) in g.vars_of("nat")
            add(("rewrite ?INR_IZR_INZ in *; apply Nat2Z.inj; " if nat else "") + "apply eq_IZR; simpl; first [lra | nra]", 2, tag="cast-back")
    if d.real and _is_eq(concl) and d.division:
        add("field_simplify_eq; solve [lra | nra | auto]", 2, tag="fseq")
    if d.real and "sqrt" in g.all_text:
        hints = _sqrt_hints(g)
        if hints:
            add("; ".join(hints) + "; nra", 2, tag="sqrt-nra")
    if d.real and _is_eq(concl):
        for h in [h for h in g.hyps if _diseq(h.type)][:2]:
            left, right = _diseq(h.type)
            add(
                f"apply (Rmult_eq_reg_l ({left} - ({right}))); [nra | intro; apply {h.names[0]}; lra]",
                2,
                tag="cancel-diseq",
            )
    if d.real and re.search(r"\b(?:sin|cos)\b", g.all_text):
        hints = "; ".join(f"pose proof (sin2_cos2 {a})" for a in _args_of(g, "sin|cos")[:3])
        if hints:
            add(hints + "; unfold Rsqr in *; nra", 2, tag="trig-nra")
    if g.vars_of("C") or _is_complex(g, d):
        add(COMPLEX_CLOSER, 2, tag="complex")
    if d.real and root and re.search(r"\^ ?[34]", g.all_text):
        add("psatz R 3", 3, tag="psatz3")
    if not g.hyps and _is_eq(concl) and _closed_arith(concl) and not d.real:
        if d.natural and not d.integer:
            c.append(Candidate(tactic=NAT_COMPUTE, kind="close", timeout=3, tag="nat-compute"))
        elif d.integer:
            c.append(Candidate(tactic=Z_COMPUTE, kind="close", timeout=3, tag="z-compute"))
    if (d.natural or d.integer) and not d.real:
        for v, k in _mod_splits(g, d):
            add(_mod_case_split(v, k, d), 2, tag="mod-cases")
    if root and d.integer and not d.real:
        for v, lo, hi in _int_ranges(g)[:2]:
            add(_interval_split(v, lo, hi), 3, tag="interval-split")
    m = re.fullmatch(r"\s*(\d+)\s*<=\s*([A-Za-z_]\w*)\s*|\s*([A-Za-z_]\w*)\s*>=\s*(\d+)\s*", concl)
    if m and d.natural and not d.real and not d.integer:
        k, v = (int(m.group(1)), m.group(2)) if m.group(1) else (int(m.group(4)), m.group(3))
        if v in g.vars_of("nat") and 1 <= k <= 400:
            add(_below_split(v, k), 3, tag="least-split")
    # the quotients that the gcd-lcm step introduces are new variables to bound, below the root
    quotients = any(re.fullmatch(r"q[lr]\d_", n) for n in g.hyp_names())
    if (root or quotients) and (d.natural or d.integer) and not d.real:
        for v, top in _derived_bounds(g):
            add(f"assert ({v} <= {top}) by nia; do {top + 1} (destruct {v} as [|{v}]; [first [lia | nia] | ]); lia", 3, tag="bound-split")
        for v, lo, top in _derived_z_bounds(g):
            cases = " \\/ ".join(f"{v} = {k}" for k in range(lo, top + 1))
            add(
                f"assert (Hb_ : {v} <= {top}) by nia; assert (Hc_ : {cases}) by lia; "
                f"repeat destruct Hc_ as [Hc_ | Hc_]; subst {v}; first [lia | nia]",
                3,
                tag="bound-split",
            )
    for x, y, r in _factor_pairs(g) if root and d.natural and not d.real and not d.integer else []:
        split = lambda v: f"do {r + 1} (destruct {v} as [|{v}]; [first [lia | nia] | ]); lia"
        add(f"assert (Hs_ : {x} <= {r} \\/ {y} <= {r}) by nia; destruct Hs_ as [Hs_ | Hs_]; [{split(x)} | {split(y)}]", 4, tag="factor-split")
    if d.natural and not d.real:
        bounds = list(dict(_small_bounds(g)).items())
        if len(bounds) >= 2 and (bounds[0][1] + 1) * (bounds[1][1] + 1) <= 150:
            add(_nested_case_split(bounds), 3, tag="case-split")
    m = re.match(r"^\(?(\w+) = ([^\\/]+?)\)? \\/ \(?\1 = ([^\\/]+?)\)?$", concl)
    if d.real and m:
        x, a, b = m.group(1), m.group(2).strip(), m.group(3).strip()
        add(
            f"assert (Hroots : ({x} - ({a})) * ({x} - ({b})) = 0) by nra; "
            "apply Rmult_integral in Hroots; destruct Hroots; [left | right]; lra",
            2,
            tag="roots",
        )
    return c


COMPLEX_CLOSER = (
    "repeat match goal with z : C |- _ => destruct z end; unfold Cminus, Ci, RtoC, Cplus, Cmult, Copp in *; "
    "simpl in *; repeat match goal with H : (_, _) = (_, _) |- _ => injection H; clear H; intros end; "
    "repeat split; try apply injective_projections; simpl in *; nra"
)
"""Coquelicot ``C`` is ``R * R``: split every complex variable and equation into real parts."""


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
"""A closed ``nat`` equation moved to ``Z`` (binary numbers): ``(19^19 + 99^99) mod 10 = 8`` is
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
"""``E mod m`` with the remainders of the variables known (``x mod 19 = 4``): push ``mod m``
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


def _closed_arith(concl: str) -> bool:
    """Numerals and arithmetic only (no variables, no big-numeral ``of_num_uint`` terms)."""
    rest = _ARITH_WORDS.sub(" ", concl.replace("%nat", " ").replace("%Z", " "))
    return bool(re.search(r"\d", rest)) and not re.search(r"[A-Za-z_]", rest) and bool(re.search(r"\^|\bmod\b|modulo|/", concl))


def _mod_splits(g: GoalInfo, d: Domain, limit: int = 2) -> list[tuple[str, int]]:
    """``(v, k)`` for a variable ``v`` of the goal's type under ``mod k`` (``k`` a numeral 2..12)
    in a nonlinear term of the conclusion: ``a ^ 2 mod 3``, ``(n ^ 3 + 2 * n) mod 3``."""
    typ = "Z" if d.integer and not d.natural else "nat"
    names = [v for v in g.vars_of(typ) if _NAME.match(v)]
    out: list[tuple[str, int]] = []
    concl = " ".join(g.concl.split())
    if not re.search(r"\^|\*", concl):
        return out
    for m in re.finditer(r"(?:\bmod|/)\s+(\d+)\b", concl):
        k = int(m.group(1))
        if not 2 <= k <= 12:
            continue
        for v in names:
            if re.search(rf"\b{re.escape(v)}\b", concl[: m.start()]) and (v, k) not in out:
                out.append((v, k))
    return out[:limit]


def _mod_case_split(v: str, k: int, d: Domain) -> str:
    """Write ``v = k q + r`` with ``0 <= r < k``, split on the ``k`` values of ``r``, and let
    ``nia`` finish each case over ``Z`` (where ``Z.div_mod_to_equations`` names the remainders).
    Qualified tactic names: ``Lia`` loads ``Zify`` and ``PreOmega`` without importing them."""
    cases = " \\/ ".join(f"r_ = {i}" for i in range(k))
    if d.integer and not d.natural:
        head = f"pose proof (Z.div_mod {v} {k} ltac:(lia)) as Hdm_; pose proof (Z.mod_pos_bound {v} {k} ltac:(lia)) as Hmb_"
        tail = "PreOmega.Z.div_mod_to_equations; nia"
    else:
        head = f"pose proof (Nat.div_mod {v} {k} ltac:(lia)) as Hdm_; pose proof (Nat.mod_upper_bound {v} {k} ltac:(lia)) as Hmb_"
        tail = "rewrite ?Nat.pow_succ_r', ?Nat.pow_0_r; Zify.zify; rewrite ?Znat.Nat2Z.inj_mod, ?Znat.Nat2Z.inj_div in *; Zify.zify; PreOmega.Z.div_mod_to_equations; nia"
    return (
        f"{head}; set (q_ := {v} / {k}) in *; set (r_ := {v} mod {k}) in *; clearbody q_ r_; subst {v}; "
        f"assert (Hr_ : {cases}) by lia; repeat destruct Hr_ as [Hr_ | Hr_]; subst r_; {tail}"
    )


def equation_numeral_max(g: GoalInfo, top: int) -> int:
    """The largest numeral in ``2..top`` of an unquantified hypothesis equation (0 if none): the
    bound ``nia`` is asked to prove for a variable before a case split."""
    nums = [
        int(n)
        for h in g.hyps
        if "=" in h.type and "forall" not in h.type and "∀" not in h.type
        for n in re.findall(r"(?<![\w.])(\d+)(?![\w.])", h.type)
    ]
    return max([n for n in nums if 2 <= n <= top], default=0)


def _derived_bounds(g: GoalInfo, limit: int = 2, top: int = 100) -> list[tuple[str, int]]:
    """``(v, K)`` for ``nat`` variables without a stated bound, ``K`` the largest numeral of an
    equation among the hypotheses (<= ``top``): ``nia`` may prove ``v <= K`` (``x + y + x*y = 80``),
    and a case split then finishes each value."""
    bounded = {v for v, _ in _small_bounds(g)}
    big = equation_numeral_max(g, top)
    if not big:
        return []
    vs = [v for v in g.vars_of("nat") if v not in bounded and _NAME.match(v)]
    return [(v, big) for v in vs[:limit]]


def _derived_z_bounds(g: GoalInfo, limit: int = 2, top: int = 60) -> list[tuple[str, int, int]]:
    """``(v, lo, K)`` for ``Z`` variables with a stated lower bound ``lo >= 0`` and no upper one,
    ``K`` the largest numeral of a hypothesis equation (<= ``top``): as ``_derived_bounds``."""
    ranged = {v for v, _, _ in _int_ranges(g)}
    big = equation_numeral_max(g, top)
    if not big:
        return []
    out = []
    for h in g.hyps:
        t = " ".join(h.type.split()).replace("%Z", "")
        m = re.fullmatch(r"(\d+)\s*(<=|<)\s*([A-Za-z_]\w*)|([A-Za-z_]\w*)\s*(>=|>)\s*(\d+)", t)
        if not m:
            continue
        v = m.group(3) or m.group(4)
        lo = int(m.group(1) or m.group(6)) + (1 if (m.group(2) or m.group(5)) in ("<", ">") else 0)
        if v in g.vars_of("Z") and v not in ranged and lo <= big and v not in [o[0] for o in out]:
            out.append((v, lo, big))
    return out[:limit]


def _is_complex(g: GoalInfo, d: Domain) -> bool:
    return "C" in d.flags or bool(re.search(r"\bCi\b|%C\b", g.all_text))


def _operand_before(text: str, end: int) -> str | None:
    """The operand ending just before ``text[end]``: a parenthesised group or a word/number."""
    i = end
    while i > 0 and text[i - 1] == " ":
        i -= 1
    if i > 0 and text[i - 1] == ")":
        depth, j = 0, i - 1
        while j >= 0:
            depth += {")": 1, "(": -1}.get(text[j], 0)
            if depth == 0:
                return text[j:i]
            j -= 1
        return None
    m = re.search(r"[\w'.]+$", text[:i])
    return m.group(0) if m else None


def _nat_divmod_hints(g: GoalInfo, limit: int = 6) -> list[str]:
    """``pose proof`` of the division equation and remainder bound for each ``X mod K`` / ``X / K``
    with a numeral ``K`` (lia does not know ``Nat.modulo`` in Coq 8.16)."""
    out: list[str] = []
    seen: set[tuple[str, str]] = set()
    text = " ".join(g.all_text.split())
    for m in re.finditer(r"\s(mod|/)\s+(\d+)\b", text):
        x = _operand_before(text, m.start())
        # A nat power would be computed in unary; a closed operand is the compute closers' job
        # (its equation made `lia` hang for 11 s on `(30 * 39) mod 47`).
        if not x or "^" in x or not re.search(r"[A-Za-z_]", x) or (x, m.group(2)) in seen:
            continue
        seen.add((x, m.group(2)))
        k = m.group(2)
        out.append(f"pose proof (Nat.div_mod {x} {k} ltac:(lia))")
        out.append(f"pose proof (Nat.mod_upper_bound {x} {k} ltac:(lia))")
    return out[: 2 * limit]


def _sqrt_hints(g: GoalInfo, limit: int = 3) -> list[str]:
    """``sqrt A >= 0`` and ``sqrt A * sqrt A = A`` for each ``sqrt A`` in sight (A proved >= 0 by nra)."""
    out = []
    for a in _sqrt_args(g)[:limit]:
        out.append(f"pose proof (sqrt_pos {a})")
        out.append(f"try pose proof (sqrt_sqrt {a} ltac:(nra))")
    return out


LN_EXPAND = (
    "repeat match goal with H : context [ln (_ * _)] |- _ => rewrite ln_mult in H by (try apply pow_lt; nra) "
    "| |- context [ln (_ * _)] => rewrite ln_mult by (try apply pow_lt; nra) "
    "| H : context [ln (_ / _)] |- _ => rewrite ln_div in H by (try apply pow_lt; nra) "
    "| |- context [ln (_ / _)] => rewrite ln_div by (try apply pow_lt; nra) "
    "| H : context [ln (_ ^ _)] |- _ => rewrite ln_pow in H by nra "
    "| |- context [ln (_ ^ _)] => rewrite ln_pow by nra end; simpl in *"
)
"""Turn logarithms of products, quotients and powers into sums (positivity side goals by nra)."""


def _leading_arg(rest: str) -> str | None:
    """The function argument at the start of ``rest``: a parenthesised group or a word."""
    if rest.startswith("("):
        depth = 0
        for j, ch in enumerate(rest):
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if depth == 0:
                return rest[: j + 1]
        return None
    w = re.match(r"[\w'.]+", rest)
    return w.group(0) if w else None


EXP_LOG = (
    "unfold Rpower in *; repeat match goal with "
    "| H : exp _ = exp _ |- _ => apply exp_inv in H "
    "| H : exp _ = _ |- _ => apply (f_equal ln) in H; rewrite !ln_exp in H "
    "| H : _ = exp _ |- _ => apply (f_equal ln) in H; rewrite !ln_exp in H end"
)
"""Exponential equations made linear: ``Rpower a e`` is ``exp (e * ln a)``; an equation between
exponentials compares exponents (``exp_inv``), one with another side takes ``ln`` of it."""


def _ln_powers(g: GoalInfo, limit: int = 3) -> list[tuple[int, int, int]]:
    """``(N, k, p)`` for each ``ln N`` in sight with ``N = p ^ k``, ``k >= 2``, ``p`` smallest:
    ``ln 32 = 5 * ln 2`` puts logarithms of one base on a common atom."""
    out = []
    for s in dict.fromkeys(re.findall(r"\bln\s+(\d+)\b", g.all_text)):
        n = int(s)
        # the largest exponent with an exact root has the smallest base
        for k in range(n.bit_length(), 1, -1):
            p = _int_root(n, k)
            if p >= 2 and p**k == n:
                out.append((n, k, p))
                break
    return out[:limit]


def _ln_products(g: GoalInfo, limit: int = 4) -> list[tuple[int, list[tuple[int, int]]]]:
    """``(N, [(p, k), ...])`` for each ``ln N`` with ``N`` a product of at least two distinct small
    primes: ``ln 80 = 4 * ln 2 + 1 * ln 5`` leaves every logarithm a combination of ``ln p``."""
    out = []
    for s in dict.fromkeys(re.findall(r"\bln\s+(\d+)\b", g.all_text)):
        n, fs = int(s), []
        if not 2 <= n <= 10**9:
            continue  # ln 0 would divide by every p forever
        for p in range(2, 100):
            k = 0
            while n % p == 0:
                n, k = n // p, k + 1
            if k:
                fs.append((p, k))
        if n == 1 and len(fs) >= 2:
            out.append((int(s), fs))
    return out[:limit]


def _int_root(n: int, k: int) -> int:
    """``floor(n ** (1 / k))`` in integers (a float root is wrong for large ``n``)."""
    r = int(round(n ** (1.0 / k)))
    while r**k > n:
        r -= 1
    while (r + 1) ** k <= n:
        r += 1
    return r


TRIG_VALUES = (
    "rewrite ?sin_0, ?cos_0, ?sin_PI, ?cos_PI, ?sin_PI2, ?cos_PI2, ?sin_PI3, ?cos_PI3, ?sin_PI6, ?cos_PI6, "
    "?sin_PI4, ?cos_PI4, ?tan_PI4, ?tan_PI3 in *"
)
"""Sine, cosine and tangent at 0, pi, pi/2, pi/3, pi/4, pi/6 (the standard library's table)."""
TRIG_EXPAND = "rewrite ?sin_plus, ?cos_plus, ?sin_minus, ?cos_minus, ?sin_2a, ?cos_2a, ?sin_neg, ?cos_neg in *"
"""Sums, differences, doubles and opposites of angles expanded into sines and cosines."""


def _args_of(g: GoalInfo, functions: str) -> list[str]:
    """The distinct arguments the goal applies the named functions to (``sin|cos``)."""
    text = " ".join(g.all_text.split())
    args: list[str] = []
    for m in re.finditer(rf"\b(?:{functions})\s+", text):
        arg = _leading_arg(text[m.end() :])
        if arg and arg not in args:
            args.append(arg)
    return args


def _sqrt_args(g: GoalInfo) -> list[str]:
    return _args_of(g, "sqrt")


def _sqrt_equations(g: GoalInfo, limit: int = 2) -> list[str]:
    """Square a hypothesis ``sqrt A = B`` into ``B * B = A``. ``0 <= A`` comes from the
    hypothesis itself: were ``A < 0``, ``sqrt A`` would be ``0`` (``sqrt_neg_0``)."""
    out = []
    for h in g.hyps:
        typ = " ".join(h.type.split())
        if "forall" in typ or not _is_eq(typ):
            continue
        left, _, right = typ.partition(" = ")
        for side, flip, other in ((left, "", right), (right, "<- ", left)):
            if not side.startswith("sqrt "):
                continue
            arg = _leading_arg(side[5:].lstrip())
            if not arg or side[5:].strip() != arg:
                continue
            n = h.names[0]
            arg2 = _leading_arg(other[5:].lstrip()) if other.startswith("sqrt ") else None
            # sqrt A = sqrt 19 with A < 0 would make sqrt 19 = 0
            neg = f"first [lra | pose proof (sqrt_lt_R0 {arg2} ltac:(lra)); lra]" if arg2 else "lra"
            out.append(
                f"assert (Hsq_ : 0 <= {arg}) by (destruct (Rle_or_lt 0 {arg}) as [Hp_ | Hn_]; [exact Hp_ | "
                f"rewrite (sqrt_neg_0 {arg} (Rlt_le _ _ Hn_)) in {n}; {neg}]); "
                f"pose proof (sqrt_sqrt {arg} Hsq_) as Hss_; rewrite {flip}{n} in Hss_"
            )
    return out[:limit]


def _perfect_square_roots(g: GoalInfo) -> list[tuple[str, str]]:
    """``(A, K)`` for each ``sqrt A`` whose argument is a closed numeral expression equal to
    ``K * K`` with ``K`` a non-negative rational (computed here, proved by ``sqrt_lem_1``)."""
    out = []
    for arg in _sqrt_args(g):
        value = _eval_numeral(arg)
        if value is None or value < 0:
            continue
        num, den = value.numerator, value.denominator
        rn, rd = math.isqrt(num), math.isqrt(den)
        if rn * rn == num and rd * rd == den:
            out.append((arg, f"{rn}" if rd == 1 else f"{rn} / {rd}"))
    return out[:3]


def _square_part(n: int) -> int:
    """The largest ``k`` with ``k * k`` dividing ``n``. Primes up to the cube root are divided
    out; what is left has at most two prime factors, so it is a square exactly when it is ``p * p``."""
    k, p = 1, 2
    while p * p * p <= n:
        while n % (p * p) == 0:
            n //= p * p
            k *= p
        if n % p == 0:
            n //= p
        p += 1
    r = math.isqrt(n)
    return k * r if r > 1 and r * r == n else k


def _radicals(g: GoalInfo, limit: int = 3) -> list[tuple[str, int, int]]:
    """``(A, k, m)`` for each ``sqrt A`` with ``A`` a closed integer ``k * k * m``, ``k > 1``
    largest and ``m > 1``: ``sqrt 80 = 4 * sqrt 5`` puts radicals on a common atom."""
    out = []
    for arg in _sqrt_args(g):
        value = _eval_numeral(arg)
        if value is None or value.denominator != 1 or not 1 < value <= 10**12:
            continue
        n = int(value)
        k = _square_part(n)
        if k > 1 and n // (k * k) > 1:
            out.append((arg, k, n // (k * k)))
    return out[:limit]


def _eval_numeral(expr: str):
    """Exact value of a closed ``+ - * / ^`` numeral expression, or None."""
    import ast
    from fractions import Fraction

    if not re.fullmatch(r"[\d\s+\-*/^().]+", expr):
        return None
    try:
        tree = ast.parse(expr.replace("^", "**"), mode="eval")
    except SyntaxError:
        return None

    def ev(n):
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return Fraction(n.value)
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return -ev(n.operand)
        if isinstance(n, ast.BinOp):
            a, b = ev(n.left), ev(n.right)
            if isinstance(n.op, ast.Add):
                return a + b
            if isinstance(n.op, ast.Sub):
                return a - b
            if isinstance(n.op, ast.Mult):
                return a * b
            if isinstance(n.op, ast.Div) and b != 0:
                return a / b
            if isinstance(n.op, ast.Pow) and b.denominator == 1 and 0 <= b <= 64:
                return a ** int(b)
        raise ValueError

    try:
        return ev(tree)
    except (ValueError, ZeroDivisionError, RecursionError):
        return None


def _up_values(g: GoalInfo, limit: int = 3) -> list[tuple[str, int, str]]:
    """``(A, z, closer)`` for each ``up A`` with a closed argument: a rational numeral
    expression or ``sqrt N``. ``z = floor(A) + 1`` is computed here; ``tech_up`` turns
    ``z = up A`` into ``A < z <= A + 1``, which ``closer`` proves."""
    out: list[tuple[str, int, str]] = []
    for arg in _args_of(g, "up"):
        value = _eval_numeral(arg)
        if value is not None:
            out.append((arg, math.floor(value) + 1, "lra"))
            continue
        s = re.fullmatch(r"\(?\s*sqrt\s+(\d+)\s*\)?", arg)
        if s:
            n = int(s.group(1))
            out.append((arg, math.isqrt(n) + 1, f"pose proof (sqrt_pos {n}); pose proof (sqrt_sqrt {n} ltac:(lra)); nra"))
    return out[:limit]


def _diseq(t: str) -> tuple[str, str] | None:
    """``(A, B)`` for a hypothesis ``A <> B`` with ``B`` not zero (a factor to cancel)."""
    m = re.fullmatch(r"\s*([^<>=]+?)\s*<>\s*([^<>=]+?)\s*", t)
    if not m or m.group(2) == "0" or "/\\" in t or "\\/" in t:
        return None
    return m.group(1), m.group(2)


def _is_eq(t: str) -> bool:
    return bool(re.search(r"(?<![<>:])=(?![>])", t)) and "<>" not in t and "<=" not in t and ">=" not in t


def _nonlinear(g: GoalInfo) -> bool:
    """A product of two non-numeral factors or a power appears: worth an SOS/psatz call."""
    return bool(re.search(r"\^|[A-Za-z_)]\s*\*\s*[A-Za-z_(]", g.all_text))


def _square_hints(g: GoalInfo) -> list[str]:
    """``pose proof (pow2_ge_0 (x - y))`` for real variables, pairs first: the usual nra help."""
    xs = [v for v in g.vars_of("R") if _NAME.match(v)][:4]
    hints = [f"pose proof (pow2_ge_0 ({a} - {b}))" for i, a in enumerate(xs) for b in xs[i + 1 :]]
    hints += [f"pose proof (pow2_ge_0 {a})" for a in xs]
    return hints[:8]


def _vertex_hints(g: GoalInfo, limit: int = 3) -> list[str]:
    """Completed squares: ``pose proof (pow2_ge_0 (2*a*x + b))`` for a real ``x`` that occurs as
    ``a * x ^ 2`` and ``b * x`` in the same unquantified fact (``2 * x ^ 2 + 5 * x + c <= 0``
    gives ``(4 * x + 5) ^ 2 >= 0``): the square nra needs for a quadratic's extremum."""
    out: list[str] = []
    texts = [h.type for h in g.hyps if "forall" not in h.type] + [g.concl]
    for x in [v for v in g.vars_of("R") if _NAME.match(v)][:4]:
        xe = re.escape(x)
        for text in texts:
            text = " ".join(text.split())
            sq = re.search(rf"(?:(?<![\w.*/^])|(?<=[(+\-] ))(?:(\d+) \* )?{xe} \^ 2\b", text)
            lin = re.search(rf"([+-]) (?:(\d+) \* )?{xe}\b(?! \^)(?! \*)", text) or re.search(rf"^(?:(\d+) \* )?{xe}\b(?! \^)(?! \*)", text)
            if not sq or not lin:
                continue
            a = int(sq.group(1) or 1)
            if lin.re.pattern.startswith("^"):
                sign, b = "+", int(lin.group(1) or 1)
            else:
                sign, b = lin.group(1), int(lin.group(2) or 1)
            hint = f"pose proof (pow2_ge_0 ({2 * a} * {x} {sign} {b}))"
            if hint not in out:
                out.append(hint)
    return out[:limit]


_FUN_DEF = re.compile(r"^forall\s+(?P<binders>[^,]*),\s*(?P<conds>(?:[^,]*?->\s*)*)(?P<f>[A-Za-z_]\w*)\s+[^=]*=")


def _defined_function(hyp_type: str) -> str | None:
    """``f`` when the hypothesis reads ``forall x ..., f <args> = ...`` with ``f`` not bound."""
    m = _FUN_DEF.match(hyp_type)
    if not m:
        return None
    bound = set(re.findall(r"[A-Za-z_]\w*", m.group("binders")))
    return None if m.group("f") in bound else m.group("f")


def _rocq_steps(g: GoalInfo, d: Domain, ctx: ProblemContext) -> list[Candidate]:
    s: list[Candidate] = []
    add = lambda tac, cost=1.0, t=1.0, tag="": s.append(
        Candidate(tactic=tac, kind="step", timeout=t, cost=cost, tag=tag or tac.split()[0])
    )

    def add_joined(parts: list[str], cost: float, tag: str) -> None:
        """One step made of every instance of a family (all the radicals, all the ``up``s)."""
        if parts:
            add("; ".join(parts), cost, tag=tag)
    concl = g.concl
    if concl.startswith(("forall", "~")) or "->" in concl:
        add("intros", 0.2)
    if re.match(r"^\(?.*<>", concl) or concl.startswith("~"):
        add("intro", 0.3)
    if "/\\" in concl or "<->" in concl:
        add("split", 0.5)
        if concl.count("/\\") > 1:
            add("repeat split", 0.4, tag="split")
    if "\\/" in concl:
        add("left", 1.5)
        add("right", 1.5)
    types = [h.type for h in g.hyps]
    if any(("/\\" in t or t.startswith("exists")) and not t.startswith("forall") for t in types):
        add(
            "repeat match goal with H : _ /\\ _ |- _ => destruct H | H : exists _, _ |- _ => destruct H end",
            0.2,
            tag="destruct-and",
        )
    for h in g.hyps:
        t = h.type
        if "\\/" in t and not t.startswith("forall") and not t.startswith("exists"):
            add(f"destruct {h.names[0]}", 0.8, tag="destruct-or")
    if any(re.match(r"^[A-Za-z_]\w*\s*=|=\s*[A-Za-z_]\w*$", t) for t in types):
        add("subst", 0.3)
    for h in g.hyps:
        f = _defined_function(h.type)
        if f and re.search(rf"\b{re.escape(f)}\b", g.all_text.replace(h.type, "")):
            if _FUN_DEF.match(h.type).group("conds"):
                side = "by first [lia | lra | auto | assumption]"
                add(f"rewrite !{h.names[0]} in * {side}", 0.3, tag="rewrite-cond")
                add(f"rewrite !{h.names[0]} {side}", 0.4, tag="rewrite-cond")
                # the innermost closed arguments first: in f (f 1) the outer side condition needs f 1's value
                pts = list(dict.fromkeys(re.findall(rf"\b{re.escape(f)}\s+(\d+|\([^()A-Za-z]*\))", g.concl)))[:2]
                if pts and re.search(rf"\b{re.escape(f)}\s+\(\s*{re.escape(f)}\b", g.concl):
                    add("; ".join(f"rewrite ({h.names[0]} {a}) {side}" for a in pts), 0.3, tag="rewrite-cond")
            else:
                add(f"rewrite !{h.names[0]} in *", 0.3, tag="rewrite-def")
                add(f"rewrite !{h.names[0]}", 0.4, tag="rewrite-def")
                if re.search(rf"\bmap\s+{re.escape(f)}\b", g.concl):
                    # `map f l` has `f` unapplied: rewrite the function inside the map
                    add(f"rewrite (map_ext _ _ {h.names[0]})", 0.3, tag="map-ext")
    for name in ctx.local_defs:
        if re.search(rf"\b{re.escape(name)}\b", g.all_text):
            add(f"unfold {name} in *", 0.4, tag="unfold-def")
    add("simpl in *", 1.5 if d.real else 0.8, tag="simpl")
    if d.real:
        if d.division:
            add("field_simplify; try solve [auto | lra]", 0.8, tag="field_simplify")
            for h in g.hyps:
                if "/" in h.type and not h.type.startswith("forall") and "=" in h.type:
                    add(f"field_simplify_eq in {h.names[0]}; try solve [auto | lra]", 0.6, tag="field_simplify-h")
        if "Rsqr" in g.all_text:
            add("unfold Rsqr in *", 0.5, tag="unfold")
        casts = [v for v in g.vars_of("nat") if re.search(rf"\bINR\s+{re.escape(v)}\b", g.all_text)][:4]
        if casts and not any(re.match(r"0\s*<=?\s*INR\b", h.type) for h in g.hyps):
            # signs of casts for field_simplify's denominators and nra: 0 <= INR n, 0 < INR n where 0 < n
            add_joined([f"pose proof (pos_INR {v}); try pose proof (lt_0_INR {v} ltac:(lia))" for v in casts], 0.3, "inr-pos")
        if "INR" in g.all_text or "IZR" in g.all_text:
            add("repeat rewrite ?plus_INR, ?mult_INR, ?minus_INR, ?S_INR, ?plus_IZR, ?mult_IZR, ?opp_IZR in *", 0.8, tag="cast")
    if d.real and re.match(r"^sqrt\b.*=", concl) and _is_eq(concl):
        add("apply sqrt_lem_1; try nra", 0.4, tag="sqrt-lem")
    if d.real and re.search(r"=\s*sqrt\b", concl) and _is_eq(concl):
        add("symmetry; apply sqrt_lem_1; try nra", 0.4, tag="sqrt-lem")
    if d.real and _is_eq(concl) and "sqrt" in concl and not concl.lstrip().startswith("sqrt"):
        # x = 3 * sqrt 2 from x >= 0 and x * x = 18: compare the squares of two nonnegative sides
        pos = "; ".join(_sqrt_hints(g))
        add(f"apply Rsqr_inj; [solve [{pos}; nra] | solve [{pos}; nra] | unfold Rsqr]", 0.4, tag="square-eq")
    if _same_head_sides(concl):
        add("f_equal", 0.5, tag="f_equal")  # sqrt A = sqrt B from A = B
    if d.real and re.search(r"\bsqrt\s+(?:\w+|\([^()]*\))\s*\*\s*sqrt\b", concl):
        # sqrt a * sqrt b = sqrt (a * b) for nonnegative factors: one radical to square
        add("rewrite <- !sqrt_mult by nra", 0.4, tag="sqrt-mult")
    if d.real and re.search(r"\bln\s*\(", g.all_text):
        add(LN_EXPAND, 0.4, tag="ln-expand")
    if d.real and re.search(r"\bRpower\b|\bexp\b", " ".join(h.type for h in g.hyps if "forall" not in h.type)):
        add(EXP_LOG, 0.4, tag="exp-log")
    add_joined(
        [
            f"assert (Hln{n}_ : ln {n} = {k} * ln {p}) by (replace {n} with ({p} ^ {k}) by lra; rewrite ln_pow by lra; simpl; lra); "
            f"rewrite Hln{n}_ in *"
            for n, k, p in (_ln_powers(g) if d.real else [])
        ],
        0.3,
        "ln-factor",
    )
    add_joined(
        [
            f"assert (Hln{n}_ : ln {n} = {' + '.join(f'{k} * ln {p}' for p, k in fs)}) by "
            f"(replace {n} with ({' * '.join(f'{p} ^ {k}' for p, k in fs)}) by lra; "
            f"rewrite !ln_mult by (repeat apply Rmult_lt_0_compat; try apply pow_lt; lra); rewrite !ln_pow by lra; simpl; lra); "
            f"rewrite Hln{n}_ in *"
            for n, fs in (_ln_products(g) if d.real else [])
        ],
        0.3,
        "ln-factor",
    )
    ks = sorted({k for k in re.findall(r"\bln\s+(\d+)\b", g.all_text) if int(k) > 1}, key=int)[:4] if d.real else []
    if ks and not any(h.type.startswith("0 < ln") for h in g.hyps):
        # `ln_gt_0` is Coquelicot's, not the standard library's: ln 1 = 0 and monotonicity instead
        add("; ".join(f"assert (0 < ln {k}) by (rewrite <- ln_1; apply ln_increasing; lra)" for k in ks), 0.3, tag="ln-pos")
    if d.real and re.search(r"\b(?:sin|cos|tan)\b", g.all_text):
        if "PI" in g.all_text or re.search(r"\b(?:sin|cos)\s+0\b", g.all_text):
            add(TRIG_VALUES, 0.3, tag="trig-values")
        if re.search(r"\b(?:sin|cos)\s*\((?:[^()]|\([^()]*\))*[-+]|\b(?:sin|cos)\s*\(\s*2\s*\*", g.all_text):
            add(TRIG_EXPAND, 0.5, tag="trig-expand")
    add_joined(
        [f"replace (up {a}) with ({z})%Z by (apply tech_up; first [lra | {c}])" for a, z, c in (_up_values(g) if d.real else [])],
        0.3,
        "up-eval",
    )
    if d.real and re.search(r"\bInt_part\b", g.all_text):
        add("unfold Int_part in *", 0.4, tag="unfold")
    for tac in _unrolled_recurrences(g):
        add(tac, 0.4, tag="unroll")
    add_joined(
        [
            f"replace (Rpower {a} {e}) with ({v}) by (replace {a} with (Rpower {m} (INR {q})) by (rewrite Rpower_pow by lra; simpl; lra); "
            f"rewrite Rpower_mult; replace (INR {q} * {e}) with (INR {p}) by (simpl; field); rewrite Rpower_pow by lra; simpl; lra)"
            for a, e, v, m, p, q in (_rpower_roots(g) if d.real else [])
        ],
        0.3,
        "rpower-root",
    )
    for tac in _arithmetic_closed_forms(g) if d.real else []:
        add(tac, 0.4, t=3.0, tag="arith-seq")  # unary indices (u 2010) cost ~1 s to cast
    for tac in _sqrt_equations(g) if d.real else []:
        add(tac, 0.4, tag="sqrt-square")
    add_joined(
        [
            f"replace (sqrt {a}) with ({k} * sqrt {m}) by (symmetry; apply sqrt_lem_1; [lra | pose proof (sqrt_pos {m}); nra | "
            f"replace ({k} * sqrt {m} * ({k} * sqrt {m})) with ({k} * {k} * (sqrt {m} * sqrt {m})) by ring; rewrite sqrt_sqrt by lra; lra])"
            for a, k, m in (_radicals(g) if d.real else [])
        ],
        0.3,
        "sqrt-factor",
    )
    for arg, root_value in _perfect_square_roots(g):
        add(f"replace (sqrt {arg}) with ({root_value}) by (symmetry; apply sqrt_lem_1; lra)", 0.3, tag="sqrt-eval")
    if d.real and re.search(r"\bR(?:max|min)\b", g.all_text):
        add(
            "unfold Rmax, Rmin in *; repeat match goal with H : context [Rle_dec ?x ?y] |- _ => destruct (Rle_dec x y) "
            "| |- context [Rle_dec ?x ?y] => destruct (Rle_dec x y) end",
            0.5,
            tag="minmax-cases",
        )
    if "Rabs" in g.all_text:
        add(
            "unfold Rabs in *; repeat match goal with H : context [Rcase_abs ?x] |- _ => destruct (Rcase_abs x) "
            "| |- context [Rcase_abs ?x] => destruct (Rcase_abs x) end",
            0.5,
            tag="rabs-cases",
        )
    for h in g.hyps:
        m = re.match(r"^forall\s+(\w+)\s*:\s*R\s*,", h.type)
        f = _defined_function(h.type) if m else None
        # a "definition" whose function recurs in it (f x + 2 * f (- x) = x) is an equation to instantiate
        if m and (not f or len(re.findall(rf"\b{re.escape(f)}\b", h.type)) > 1):
            n = h.names[0]
            add("; ".join(f"pose proof ({n} ({k}))" for k in ("0", "1", "-1", "2")), 0.8, tag="instantiate")
            points = _goal_points(g)
            if points:
                # premises (x <> 0 -> ...) discharged on the spot; - - t and / / t written back as t
                premises = len(re.findall(r"->", h.type.split("=")[0]))
                side = " ltac:(solve [lra | apply Rinv_neq_0_compat; lra])" * premises
                add(
                    "; ".join(f"pose proof ({n} ({k}){side})" for k in points) + "; rewrite ?Ropp_involutive, ?Rinv_inv in *",
                    0.6,
                    tag="instantiate",
                )
    if d.real:
        pw = list(dict.fromkeys(re.findall(r"\bRpower\s+(\d+|\(\d+\s*/\s*\d+\))\s+(\d+)\b", g.all_text)))[:3]
        if pw:
            add(
                "; ".join(
                    f"assert (Hp{i} : Rpower {a} {k} = {a} ^ {k}) by (rewrite <- Rpower_pow by lra; f_equal; simpl; lra); rewrite ?Hp{i} in *"
                    for i, (a, k) in enumerate(pw)
                ),
                0.3,
                tag="rpower-eval",
            )
        for tac in _shifted_instances(g):
            add(tac, 0.6, tag="shift-eval")
    if re.search(r"\b(?:Nat|Z)\.divide\b|\(\s*\d+\s*\||\(\s*[A-Za-z_]\w*\s*\|\s", g.all_text):
        # one name per domain: a reference to an absent `Z.divide` fails the whole tactic
        names = ", ".join(n for n, ok in (("Nat.divide", d.natural), ("Z.divide", d.integer)) if ok)
        if names:
            add(f"unfold {names} in *", 0.3, tag="unfold-divide")
    for h in g.hyps:
        m = re.match(r"^forall\s+(\([^)]*\)(?:\s*\([^)]*\))*|[^,(]+?)\s*,\s*(.*)$", h.type)
        if m and "/\\" in m.group(2) and not re.search(r"->|\\/|<->|\bexists\b|\bforall\b", m.group(2)):
            # forall x, A x /\ B x: two hypotheses that rewriting and `apply` can use on their own
            xs = " ".join(re.findall(r"\b([A-Za-z_]\w*)\b(?=[^:]*:)", m.group(1)) or m.group(1).split())
            n = h.names[0]
            add(f"pose proof (fun {xs} => proj1 ({n} {xs})) as {n}_l; pose proof (fun {xs} => proj2 ({n} {xs})) as {n}_r; clear {n}", 0.3, tag="forall-and")
    known = [
        h.names[0]
        for h in g.hyps
        if (m := re.fullmatch(r"([A-Za-z_]\w*\s+(?:\w+|\([^()]*\)))\s*=\s*(-?[\d.]+|[A-Za-z_]\w*)", h.type.strip()))
        and not h.type.startswith("forall")
        and re.search(rf"(?<![\w.]){re.escape(m.group(1))}(?![\w.])", concl)
    ]
    if known:
        # stated values of applications the goal evaluates (f 2 = 4 in f (f 2))
        add(f"rewrite {', '.join(known[:3])}", 0.3, tag="rewrite-value")
    for tac in _inverse_points(g) if d.real or d.natural or d.integer else []:
        add(tac, 0.3, tag="inverse")
    for tac in _linear_gcd_steps(g) if d.natural else []:
        add(tac, 0.3, tag="gcd-linear")
    for tac in _gcd_lcm_steps(g):
        add(tac, 0.3, tag="gcd-lcm")
    for i, w in enumerate(_witnesses(g, d)):
        add(f"exists {w}", 0.5 + 0.1 * i, tag="witness")
    if d.real and re.search(r"\bPI\b", g.all_text) and not any("PI / 2" in h.type and "<" in h.type for h in g.hyps):
        add("pose proof PI2_3_2; pose proof PI_4", 0.3, tag="pi-bounds")
    if d.natural and not d.real and ctx.big_numbers and "of_num_uint" in g.all_text:
        changes = "; ".join(f"change {n} with (Z.to_nat {n}%Z) in *" for n in ctx.big_numbers[:6])
        # `change` re-checks the unary numeral: ~1 s for 39500, so a 1 s limit was flaky.
        s.append(Candidate(tactic=changes, prelude="From Coq Require Import ZArith.", kind="step", timeout=4, cost=0.2, tag="big-nat"))
    sum_bounds = _sum_bounds(concl)
    for v in g.vars_of("nat")[:2]:
        shifted = [b for b in sum_bounds if re.search(rf"\b{re.escape(v)}\b", b) and b.startswith("(")]
        if shifted and v in _positive_nats(g, limit=4):
            # a sum up to n - 1 (or pred n) with n >= 1: n is S n', the bound n'
            fix = "simpl pred" if "pred" in shifted[0] else f"replace (S {v} - 1)%nat with {v} by lia"
            # the positivity hypothesis, now 1 <= S n, is dropped: induction would make it a premise of the IH
            drop = f"repeat match goal with H : (_ <= S {v})%nat |- _ => clear H | H : (_ < S {v})%nat |- _ => clear H end"
            add(f"destruct {v} as [|{v}]; [lia | {fix}; {drop}]", 0.4, tag="sum-shift")
        if v in sum_bounds:
            # a sum up to n: the last term split off (tech5) and the hypothesis used, casts of S n opened
            add(
                f"induction {v} as [|{v} IH_]; [simpl | rewrite tech5, IH_ by lia; repeat rewrite ?plus_INR, ?mult_INR, ?S_INR; change (INR 0) with 0; pose proof (pos_INR {v})]",
                0.6,
                tag="sum-induction",
            )
    for v in g.vars_of("nat")[:2]:
        if re.search(rf"\b{re.escape(v)}\b", concl) and (not d.real or re.search(r"\bsum_f_R0\b|\bsum_n_m\b|\bINR\b", concl)):
            add(f"induction {v}; simpl in *", 1.5, tag="induction")
    for h in g.hyps:
        if h.names[0].startswith("IH") and _is_eq(h.type) and not h.type.startswith("forall") and "->" not in h.type:
            add(f"rewrite {h.names[0]}", 0.3, tag="rewrite-ih")
    if d.natural and not d.real and not d.integer:
        for _, tac in _exponent_bounds(g):
            add(tac, 0.4, tag="exp-bound")
    if d.natural:
        for v in _positive_nats(g):
            add(f"destruct {v} as [|{v}]; [lia|]", 0.6, tag="pos-destruct")
    if d.natural or d.integer:
        for v, bound in _small_bounds(g):
            add(_case_split(v, bound), 0.5, t=3.0, tag="case-split")
    return s


def _inverse_points(g: GoalInfo, limit: int = 2) -> list[str]:
    """The goal ``F c = d`` with ``forall x, F (G x) = x`` known: ``c`` is ``G d`` (by a stated
    value or ``G``'s definition), and the inverse law closes it."""
    m = re.fullmatch(r"([A-Za-z_]\w*)\s+(\w+|\([^()]*\))\s*=\s*([^=]+)", g.concl.strip())
    if not m:
        return []
    f, c, value = m.group(1), m.group(2), m.group(3).strip()
    out = []
    for h in g.hyps:
        law = re.fullmatch(
            rf"forall\s+\(?(\w+)\s*(?::\s*\w+)?\)?\s*,\s*{re.escape(f)}\s+\(([A-Za-z_]\w*)\s+\1\)\s*=\s*\1", h.type.strip()
        )
        if not law or len(out) >= limit:
            continue
        inner = law.group(2)
        defs = [d.names[0] for d in g.hyps if _defined_function(d.type) == inner and d is not h]
        proofs = ["assumption", "symmetry; assumption"] + [f"rewrite {n}; ring" for n in defs] + [f"rewrite {n}; field" for n in defs]
        out.append(f"replace {c} with ({inner} ({value})) by (first [{' | '.join(proofs)}]); apply {h.names[0]}")
    return out


def _factor_pairs(g: GoalInfo, limit: int = 1, top: int = 80) -> list[tuple[str, str, int]]:
    """``(x, y, r)`` for a hypothesis ``x * y = N`` (``nat`` variables, ``N`` a numeral): one of the
    two factors is at most ``r = isqrt N``, so a case split on each side over ``0..r`` finds every
    factorisation (``m * n = 2005`` -> 5 * 401) where a split up to ``N`` would be too long."""
    nats = set(g.vars_of("nat"))
    out = []
    for h in g.hyps:
        m = re.fullmatch(r"([A-Za-z_]\w*)\s*\*\s*([A-Za-z_]\w*)\s*=\s*(\d+)|(\d+)\s*=\s*([A-Za-z_]\w*)\s*\*\s*([A-Za-z_]\w*)", h.type.strip())
        if not m:
            continue
        x, y, n = (m.group(1), m.group(2), m.group(3)) if m.group(1) else (m.group(5), m.group(6), m.group(4))
        r = math.isqrt(int(n))
        if x in nats and y in nats and x != y and 2 <= r <= top:
            out.append((x, y, r))
    return out[:limit]


def _linear_form(text: str) -> tuple[int, str, int] | None:
    """``(a, n, b)`` for ``(a * n + b)`` or ``(n + b)``."""
    m = re.fullmatch(r"\(\s*(?:(\d+)\s*\*\s*)?([A-Za-z_]\w*)\s*\+\s*(\d+)\s*\)", text.strip())
    return (int(m.group(1) or 1), m.group(2), int(m.group(3))) if m else None


def _linear_gcd_steps(g: GoalInfo) -> list[str]:
    """``gcd (a n + b) (c n + d)`` divides the constant that a combination ``u X - v Y`` leaves
    (``u a = v c``): one Euclid step on linear forms, ``gcd (21 n + 4) (14 n + 3) | 1``."""
    text = " ".join(g.concl.split())
    m = re.match(r"^(?:Nat\.)?gcd\s+", text)
    x = _leading_arg(text[m.end() :]) if m else None
    y = _leading_arg(text[m.end() + len(x) :].lstrip()) if x else None
    fx, fy = (_linear_form(x), _linear_form(y)) if y else (None, None)
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


def _gcd_lcm_steps(g: GoalInfo, limit: int = 2) -> list[str]:
    """With ``gcd x y = v`` known: ``x`` and ``y`` written as multiples of ``v`` (``gcd_divide``),
    and ``lcm x y`` unfolded to ``x * (y / v)``, the product argument ``gcd * lcm = x * y`` that
    gcd/lcm problems rest on, left to ``lia``/``nia`` and the case splits."""
    out: list[str] = []
    names = set(g.hyp_names())
    if any(n.startswith("Hql") for n in names):
        return out  # done once already
    for h in g.hyps:
        m = re.match(r"^(Nat|Z)\.gcd\s+(\w+)\s+(\w+)\s*=\s*(.+?)\s*$", h.type.replace("%nat", "").replace("%Z", ""))
        if not m or len(out) >= limit:
            continue
        dom, x, y, v = m.groups()
        hn, i, scope = h.names[0], len(out), "nat" if dom == "Nat" else "Z"
        parts = [
            # rewritten before `destruct`: on `Nat.gcd 150 b` itself the unfolding costs ~0.7 s
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
        out.append("; ".join(parts))
    return out


def _witnesses(g: GoalInfo, d: Domain, limit: int = 8) -> list[str]:
    """Values to try for ``exists x, ...``: 0, 1, 2, the numerals of the body, the variables in
    scope of the binder's type (when it is written)."""
    m = re.match(r"^exists\s+\(?\s*([A-Za-z_][\w']*)(?:\s+[A-Za-z_][\w']*)*\s*(?::\s*([^,()]+?))?\)?\s*,\s*(.*)$", g.concl, re.DOTALL)
    if not m:
        return []
    name, typ, body = m.group(1), (m.group(2) or "").strip(), m.group(3)
    out = ["0", "1", "2"]
    # `exists k, E = 3 * k` (what `Nat.divide` unfolds to): the quotient `E / 3` is the witness
    # when the division is exact; the mod-case closers then prove `E = 3 * (E / 3)`.
    v = re.escape(name)
    times = rf"(?:(?P<k1>\d+)\s*\*\s*{v}|{v}\s*\*\s*(?P<k2>\d+))"
    q = re.fullmatch(rf"\s*(?P<e>.+?)\s*=\s*{times}\s*", body, re.DOTALL) or re.fullmatch(rf"\s*{times}\s*=\s*(?P<e>.+?)\s*", body, re.DOTALL)
    if q and not re.search(rf"\b{v}\b", q.group("e")):
        out.insert(0, f"(({q.group('e')}) / {q.group('k1') or q.group('k2')})")
    root = _linear_root(name, body)
    if root is not None and root not in out:
        out.insert(0, root)
    for n in re.findall(r"(?<![\w.])(\d+)(?![\w.])", body):
        if n not in out and len(n) <= 6:
            out.append(n)
    if typ:
        out += [v for v in g.vars_of(typ) if _NAME.match(v) and v not in out]
    if (typ in ("Z", "R") or (not typ and (d.integer or d.real))) and "-1" not in out:
        out.insert(3, "(-1)")
    return out[:limit]


def _linear_root(name: str, body: str) -> str | None:
    """The solution of the body's first equation when it is linear in ``name`` with numeral
    coefficients (``exists x, 3 * x + 2 = 11 /\\ ...`` -> ``3``), as a Rocq numeral or fraction."""
    eq = re.split(r"/\\", body)[0].strip().strip("()")
    if eq.count("=") != 1 or re.search(r"<|>", eq):
        return None
    left, right = eq.split("=")
    v = re.escape(name)

    def f(x: int):
        sub = lambda s: re.sub(rf"\b{v}\b", f"({x})", s)
        a, b = _eval_numeral(sub(left).strip()), _eval_numeral(sub(right).strip())
        return None if a is None or b is None else a - b

    f0, f1, f2 = f(0), f(1), f(2)
    if f0 is None or f1 is None or f2 is None or f1 == f0 or f2 - f1 != f1 - f0:
        return None
    r = -f0 / (f1 - f0)
    if r.denominator == 1:
        return str(r.numerator) if r >= 0 else f"({r.numerator})"
    return f"({r.numerator} / {r.denominator})"


_SHIFTED = re.compile(
    r"^forall\s+(?P<x>\w+)\s*:\s*R\s*,\s*(?P<f>[A-Za-z_]\w*)\s*\(\s*(?:"
    r"(?P=x)\s*(?P<op>[+-])\s*(?P<c>\d+(?:\s*/\s*\d+)?)|(?P<k>\d+)\s*\*\s*(?P=x))\s*\)\s*=\s*(?P<rhs>.+)$"
)


def _shifted_instances(g: GoalInfo, limit: int = 2) -> list[str]:
    """For ``forall x : R, f (x + c) = ...`` (or ``x - c``, ``k * x``): instances at the points
    where ``f``'s argument is 0, 1 or a numeral ``f`` is applied to elsewhere, with the argument
    rewritten to that numeral (``f (1 - 3 + 3)`` -> ``f 1``) so the definitional hypotheses apply."""
    out = []
    for h in g.hyps:
        m = _SHIFTED.match(" ".join(h.type.split()))
        if not m:
            continue
        f, name = m.group("f"), h.names[0]
        others = g.all_text.replace(h.type, "")
        targets = ["0", "1"] + [t for t in re.findall(rf"\b{re.escape(f)}\s+(\d+)\b", others) if t not in ("0", "1")]
        steps = []
        for i, t in enumerate(dict.fromkeys(targets)):
            if m.group("k"):
                x0, arg = f"({t} / {m.group('k')})", f"({m.group('k')} * ({t} / {m.group('k')}))"
            else:
                inv = "-" if m.group("op") == "+" else "+"
                x0 = f"({t} {inv} ({m.group('c')}))"
                arg = f"({t} {inv} ({m.group('c')}) {m.group('op')} {m.group('c')})"
            steps.append(f"pose proof ({name} {x0}) as Hs{i}; replace {arg} with {t} in Hs{i} by lra")
        out.append("; ".join(steps[:4]))
    return out[:limit]


def _goal_points(g: GoalInfo, limit: int = 6) -> list[str]:
    """Where the conclusion evaluates functions (``f 2``, ``f (1 / 3)``), and the reciprocals
    and opposites of those points: the instances a functional equation ``forall x, f x + 2 *
    f (1 / x) = ...`` needs to be solved as a linear system for ``f 2``."""
    out: list[str] = []
    for m in re.finditer(r"\b[A-Za-z_]\w*\s+(\d+|\(\s*-?\d+\s*/\s*\d+\s*\)|\(\s*-\s*\d+\s*\))(?!\w)", g.concl):
        t = " ".join(m.group(1).strip("()").split())
        v = _eval_numeral(t.replace(" ", ""))
        if v is None or t in ("0", "1", "-1", "2"):
            continue
        for cand in (t, f"/ ({t})" if v != 0 else None, f"- ({t})"):
            if cand and cand not in out:
                out.append(cand)
    return out[:limit]


_RECURRENCE = re.compile(
    r"^forall\s+(?P<n>\w+)\s*(?::\s*nat\s*)?,\s*(?P<u>[A-Za-z_]\w*)\s*\(\s*(?:(?P=n)\s*\+\s*(?P<k>\d+)|(?P<s>(?:S\s*\(?\s*)+)(?P=n)\s*\)*)\s*\)(?:%nat)?\s*(?:[-+][^=]*)?="
)


def _stated(g: GoalInfo) -> str:
    """The conclusion and the unquantified hypotheses: where the indices of a sequence that a
    problem mentions stand (``a 1 = .. -> a 9 = .. -> a 5 = ..``)."""
    return g.concl + "\n" + "\n".join(t.type for t in g.hyps if "forall" not in t.type)


def _unrolled_recurrences(g: GoalInfo, limit: int = 2, top: int = 30) -> list[str]:
    """A recurrence ``forall n, u (n + k) = ...`` and a goal about ``u N`` (``N`` a numeral):
    the instances at ``n = 0 .. N - k``, arguments computed, so that the values follow from the
    initial ones by linear arithmetic."""
    out = []
    for h in g.hyps:
        m = _RECURRENCE.match(" ".join(h.type.split()))
        if not m:
            continue
        u = m.group("u")
        k = int(m.group("k")) if m.group("k") else m.group("s").count("S")
        targets = [int(x) for x in re.findall(rf"\b{re.escape(u)}\s*\(?\s*(\d+)\s*(?:%nat)?\s*\)?", _stated(g))]
        if not targets or not 0 <= max(targets) - k <= top:
            continue
        name = h.names[0]
        out.append("; ".join(f"pose proof ({name} {i}%nat) as Hu{i}_" for i in range(max(targets) - k + 1)) + "; simpl in *")
    return out[:limit]


def _same_head_sides(concl: str) -> bool:
    """``F A = F B``: both sides one application of the same function to one argument."""
    text = " ".join(concl.split())
    left, sep, right = text.partition(" = ")
    if not sep or " = " in right:
        return False
    heads = []
    for side in (left, right):
        m = re.match(r"([A-Za-z_][\w.']*)\s+", side)
        arg = _leading_arg(side[m.end() :]) if m else None
        if not arg or side[m.end() :].strip() != arg:
            return False
        heads.append(m.group(1))
    return heads[0] == heads[1] and heads[0] not in ("fun", "forall", "exists")


def _sum_bounds(text: str) -> list[str]:
    """The upper bounds of the ``sum_f_R0 f N`` in ``text``: a word, ``(n - 1)`` or ``(pred n)``."""
    text = " ".join(text.split())
    out = []
    for m in re.finditer(r"\bsum_f_R0\s+", text):
        f = _leading_arg(text[m.end() :])
        rest = text[m.end() + len(f) :].lstrip() if f else ""
        b = re.match(r"[A-Za-z_]\w*\b|\(\s*(?:[A-Za-z_]\w*\s*-\s*1|pred\s+[A-Za-z_]\w*)\s*\)(?:%nat)?", rest)
        if b:
            out.append(b.group(0))
    return out


def _rpower_roots(g: GoalInfo, limit: int = 3) -> list[tuple[str, str, int, int, int, int]]:
    """``(A, E, value, m, p, q)`` for each ``Rpower A E`` with closed ``A = m ^ q`` (``m`` a positive
    integer) and ``E = p / q``: the power is ``m ^ p`` (``Rpower 1000000 (1/3) = 100``)."""
    text = " ".join(g.all_text.split())
    out = []
    for mt in re.finditer(r"\bRpower\s+", text):
        a = _leading_arg(text[mt.end() :])
        rest = text[mt.end() + len(a or "") :].lstrip() if a else ""
        e = _leading_arg(rest) if rest else None
        if not a or not e:
            continue
        av = _eval_numeral(a)
        ev = _eval_numeral(re.sub(r"^\(\s*/", "(1 /", e))
        if av is None or ev is None or av <= 0 or av.denominator != 1 or ev.denominator == 1 or ev <= 0:
            continue
        p, q = ev.numerator, ev.denominator
        if p > 40 or q > 64:
            continue  # m ** p of a huge exponent would not finish
        m = _int_root(int(av), q)
        if m < 2 or m**q != av or m**p > 10**12 or (a, e) in [o[:2] for o in out]:
            continue
        out.append((a, e, m**p, m, p, q))
    return out[:limit]


def _arithmetic_closed_forms(g: GoalInfo) -> list[str]:
    """An arithmetic sequence (``u (n + 2) - u (n + 1) = u (n + 1) - u n``, or ``u (n + 1) = u n + c``)
    in closed form ``u n = u 0 + INR n * d``, proved by two inductions and instantiated at every
    index in sight: ``u 2010`` or ``u n`` is then one linear equation, not 2010 unrolled ones."""
    if any(n.startswith("Hc_") for n in g.hyp_names()):
        return []  # done once already
    for h in g.hyps:
        typ = " ".join(h.type.replace("%nat", "").split())
        m = _RECURRENCE.match(typ)
        if not m:
            continue
        n, u = m.group("n"), m.group("u")
        k = int(m.group("k")) if m.group("k") else m.group("s").count("S")
        body = typ.split(",", 1)[1]
        left, _, right = body.partition(" = ")
        l_terms, r_terms = left.split(" - "), right.split(" - ")
        step = f"intro {n}; pose proof ({h.names[0]} {n}) as Hh_; rewrite ?(Nat.add_comm {n}) in Hh_; simpl in Hh_; lra"
        second = k == 2 or (k == 1 and re.search(rf"\b{re.escape(u)} \((?:S \(S {n}\)|{n} \+ 2)\)", right))
        common = len(l_terms) == 2 and len(r_terms) == 2 and (l_terms[1].strip() == r_terms[0].strip() or l_terms[0].strip() == r_terms[1].strip())
        if second and common:
            diff = f"{u} 1%nat - {u} 0%nat"
            step = f"induction {n} as [|{n} IH]; [ring | pose proof ({h.names[0]} {n}) as Hh_; rewrite ?(Nat.add_comm {n}) in Hh_; simpl in Hh_; lra]"
        elif k == 1 and (c := re.fullmatch(rf"{re.escape(u)} \(?{n}\)? \+ ([^{n}]*)", right.strip())) and u not in c.group(1):
            diff = c.group(1).strip()
        else:
            continue
        points = list(dict.fromkeys(re.findall(rf"\b{re.escape(u)}\s*\(?\s*(\d+|[A-Za-z_]\w*)\s*(?:%nat)?\s*\)?", _stated(g))))[:8]
        if not points:
            continue
        return [
            f"assert (Hd_ : forall {n}, {u} (S {n}) - {u} {n} = {diff}) by ({step}); "
            f"assert (Hc_ : forall {n}, {u} {n} = {u} 0%nat + INR {n} * ({diff})) by "
            f"(induction {n} as [|{n} IH]; [simpl; ring | rewrite S_INR; pose proof (Hd_ {n}); lra]); "
            + "; ".join(f"pose proof (Hc_ {p}%nat) as Hk{i}_" for i, p in enumerate(points))
            + "; rewrite ?INR_IZR_INZ in *; simpl Z.of_nat in *"
            # the stated values substituted, so that `INR n * (u 1 - u 0)` becomes linear
            + "".join(f"; rewrite ?{t.names[0]} in *" for t in g.hyps if re.match(rf"{re.escape(u)}\s*\(?\s*\d+\s*(?:%nat)?\s*\)?\s*=", t.type))
        ]
    return []


_BOUND = re.compile(r"^(?P<v>[A-Za-z_]\w*)\s*(?P<op><=|<)\s*(?P<k>\d+)$|^(?P<k2>\d+)\s*(?P<op2>>=|>)\s*(?P<v2>[A-Za-z_]\w*)$")


def _small_bounds(g: GoalInfo, limit: int = 100) -> list[tuple[str, int]]:
    nats = set(g.vars_of("nat"))
    out = []
    for h in g.hyps:
        m = _BOUND.match(h.type.strip())
        if not m:
            continue
        v = m.group("v") or m.group("v2")
        k = int(m.group("k") or m.group("k2"))
        strict = (m.group("op") or m.group("op2")) in ("<", ">")
        top = k - 1 if strict else k
        if v in nats and 0 <= top <= limit:
            out.append((v, top))
    return out


_INT = r"\(?-?\s*\d+\)?"
_LOWER = [re.compile(rf"^(?P<k>{_INT})\s*(?P<op><=|<)\s*(?P<v>[A-Za-z_]\w*)$"), re.compile(rf"^(?P<v>[A-Za-z_]\w*)\s*(?P<op>>=|>)\s*(?P<k>{_INT})$")]
_UPPER = [re.compile(rf"^(?P<v>[A-Za-z_]\w*)\s*(?P<op><=|<)\s*(?P<k>{_INT})$"), re.compile(rf"^(?P<k>{_INT})\s*(?P<op>>=|>)\s*(?P<v>[A-Za-z_]\w*)$")]


def _positive_nats(g: GoalInfo, limit: int = 2) -> list[str]:
    """``nat`` variables known to be positive (``n <> 0``, ``0 < n``, ``1 <= n`` ...) that the
    conclusion uses where ``S n`` would compute: an exponent, ``fact``, ``n - 1``, a function
    argument. Writing ``n`` as ``S n`` lets ``simpl`` unfold one step (``4 ^ S n = 4 * 4 ^ n``)."""
    nats = [v for v in g.vars_of("nat") if _NAME.match(v)]
    out: list[str] = []
    for h in g.hyps:
        typ = " ".join(h.type.replace("%nat", "").split()).strip("() ")
        m = re.fullmatch(r"([A-Za-z_]\w*) <> 0|0 <> ([A-Za-z_]\w*)", typ)
        v = (m.group(1) or m.group(2)) if m else None
        for pat in _LOWER:
            if v is None and (m := pat.match(typ)):
                k = _int_of(m.group("k"))
                v = m.group("v") if k >= 1 or (k == 0 and m.group("op") in ("<", ">")) else None
        if v in nats and v not in out:
            ve = re.escape(v)
            if re.search(rf"\^\s*\(?{ve}\b|\bfact\s+\(?{ve}\b|\b{ve}\s*-\s*1\b|[A-Za-z_]\w*\s+\(?{ve}\b", g.concl):
                out.append(v)
    return out[:limit]


def _exponent_bounds(g: GoalInfo, limit: int = 2, cap: int = 50000) -> list[tuple[str, str]]:
    """``(v, tactic)`` proving ``v <= K`` for a ``nat`` exponent ``v`` of a numeral base ``c``
    in an equation whose other side is a numeral ``N`` (``2 ^ x * 3 ^ y = 1296``): ``K`` is
    the largest with ``c ^ K <= N``; were ``v > K``, ``c ^ v >= c ^ (K + 1) > N``, the other
    powers being positive. Small numbers only: the proof computes ``c ^ (K + 1)`` in unary."""
    nats = {v for v in g.vars_of("nat") if _NAME.match(v)}
    bounded = {v for v, _ in _small_bounds(g)}
    out: list[tuple[str, str]] = []
    for h in g.hyps:
        typ = " ".join(h.type.split())
        if "forall" in typ or not _is_eq(typ) or typ.count(" = ") != 1:
            continue
        left, right = typ.split(" = ")
        for side, other in ((left, right), (right, left)):
            n = _eval_numeral(other.strip("() "))
            if n is None or n.denominator != 1 or n < 1:
                continue
            powers = re.findall(r"\b(\d+) \^ ([A-Za-z_]\w*)\b", side)
            for c, v in powers:
                c = int(c)
                if v not in nats or v in bounded or c < 2 or any(v == w for w, _ in out):
                    continue
                k = 0
                while c ** (k + 1) <= n:
                    k += 1
                if c ** (k + 1) > cap:
                    continue
                pos = "; ".join(
                    f"pose proof (Nat.pow_nonzero {b} {e} ltac:(lia))" for b, e in powers if (b, e) != (str(c), v)
                )
                out.append((
                    v,
                    f"assert (Hb_{v} : {v} <= {k}) by (destruct (Nat.le_gt_cases {v} {k}) as [Hle_ | Hgt_]; "
                    f"[exact Hle_ | exfalso]; pose proof (Nat.pow_le_mono_r {c} (S {k}) {v} ltac:(lia) Hgt_) as Hpw_; "
                    f"simpl in Hpw_; {pos + '; ' if pos else ''}nia)",
                ))
    return out[:limit]


def _int_of(text: str) -> int:
    return int(text.replace("(", "").replace(")", "").replace(" ", ""))


def _int_ranges(g: GoalInfo, width: int = 40) -> list[tuple[str, int, int]]:
    """``(v, lo, hi)`` for ``Z`` variables bounded on both sides by numerals in the hypotheses
    (``0 < x``, ``x <= 9``, ``1 <= x <= 9``), with at most ``width`` values in between."""
    zs = set(g.vars_of("Z"))
    lo: dict[str, int] = {}
    hi: dict[str, int] = {}
    facts = []
    for h in g.hyps:
        t = " ".join(h.type.split()).replace("%Z", "")
        m = re.fullmatch(rf"({_INT})\s*(<=|<)\s*([A-Za-z_]\w*)\s*(<=|<)\s*({_INT})", t)
        if m:
            facts += [f"{m.group(1)} {m.group(2)} {m.group(3)}", f"{m.group(3)} {m.group(4)} {m.group(5)}"]
        else:
            facts += [part.strip() for part in t.split("/\\")]
    for f in facts:
        for pat in _LOWER:
            m = pat.match(f)
            if m and m.group("v") in zs:
                k = _int_of(m.group("k")) + (1 if m.group("op") in ("<", ">") else 0)
                lo[m.group("v")] = max(k, lo.get(m.group("v"), k))
        for pat in _UPPER:
            m = pat.match(f)
            if m and m.group("v") in zs:
                k = _int_of(m.group("k")) - (1 if m.group("op") in ("<", ">") else 0)
                hi[m.group("v")] = min(k, hi.get(m.group("v"), k))
    return [(v, lo[v], hi[v]) for v in lo if v in hi and 0 <= hi[v] - lo[v] < width]


def _interval_split(v: str, lo: int, hi: int) -> str:
    """Name every integer value of ``v`` in ``[lo, hi]`` and close each case."""
    cases = " \\/ ".join(f"{v} = {k if k >= 0 else f'({k})'}" for k in range(lo, hi + 1))
    close = "first [lia | nia | vm_compute; reflexivity | vm_compute in *; lia | simpl in *; congruence]"
    return f"assert (Hc_ : {cases}) by lia; repeat destruct Hc_ as [Hc_ | Hc_]; subst {v}; {close}"


def _below_split(v: str, k: int) -> str:
    """``k <= v`` (a "least such n" goal): refute each value ``v = 0 .. k-1`` by computation."""
    close = "first [lia | vm_compute in *; lia | simpl in *; lia | vm_compute in *; congruence]"
    return f"assert (Hc_ : {v} < {k} \\/ {k} <= {v}) by lia; destruct Hc_ as [Hlt_ | Hge_]; [do {k} (destruct {v} as [|{v}]; [{close} | ]); lia | lia]"


def _case_split(v: str, top: int) -> str:
    """Peel ``v = 0, 1, ..., top`` off one by one, closing each numeric case; the rest is out of bounds."""
    close = "first [lia | simpl in *; lia | vm_compute in *; lia | vm_compute; reflexivity | simpl in *; congruence]"
    return f"do {top + 1} (destruct {v} as [|{v}]; [{close} | ]); lia"


def _nested_case_split(bounds: list[tuple[str, int]]) -> str:
    """Every combination of values of two bounded variables: the second is split inside each
    case of the first (a case of one variable alone does not decide a goal about both)."""
    close = "first [vm_compute in *; lia | simpl in *; lia]"  # vm_compute: simpl and congruence crawl on unary 16000
    (v, top), (w, top2) = bounds[:2]
    inner = f"do {top2 + 1} (destruct {w} as [|{w}]; [{close} | ]); lia"
    return f"do {top + 1} (destruct {v} as [|{v}]; [{inner} | ]); lia"



