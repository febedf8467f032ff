"""Induction families: structural induction over any inductive type in sight, and induction
along the recursion of a user ``Fixpoint`` (one-step and two-step recursions).

Each family is a small function ``(goal, domain, context) -> candidates`` with the goal shape
it answers in its docstring. All of them are closers: the induction, then ``simpl`` (``cbn``
on the user's functions over ``R``, where ``simpl`` would unfold ``INR`` and the numerals),
then the induction hypotheses rewritten, then the arithmetic closers of the domain. A closer
that leaves a goal open fails as a whole, so a wrong guess costs one timeout.

What is covered: variables of the goal whose type is ``list``, ``option``, ``nat``, ``bool``,
``prod`` or an ``Inductive`` of the problem's header (trees ...); the induction hypotheses are
rewritten by their generated names (``IHl``, ``IHt1``/``IHt2`` ...); other variables of the
conclusion are generalised first in a second variant (accumulator-style lemmas). Fixpoints
whose patterns go two constructors deep (``S (S m)``, or a nested ``match`` on the
predecessor) get strong induction (``lt_wf_ind``) and a case split two levels deep, so that
both recursive calls meet an induction hypothesis. Variants: a ``Fixpoint`` that branches on a
test, or any induction over data (library functions such as ``filter`` test too), gets the
``if`` split after it computes (``induction-if``); list goals with ``++``,
``length``, ``rev`` or ``map`` get the library's list equations (``induction-app``); over ``R``
a power whose exponent holds the variable is unfolded (``pow`` computes on ``S``); a
``Fixpoint`` applied to ``c * v + d`` gets its step argument rewritten to ``S (S ...)``
(``induction-scaled``); a ``Fixpoint`` applied to ``rev``/``++`` first gets the lemma that it
distributes over ``++``, proved by its own induction (``induction-app-lemma``). Closers name only the tactics the session knows
(``ProblemContext.absent_tactics``: no ``ring`` without ``Arith``).
Beyond the conclusion's variables: a variable that hypotheses speak of (``In k l``, ``forall x,
In x l -> ...``) gets an induction whose induction hypotheses carry those hypotheses as
premises, discharged in the step case (``induction-hyp``); a hypothesis of an inductive
predicate (a header ``Inductive ... -> Prop``, or ``<=`` next to a header ``Fixpoint``) gets
``induction H`` (``induction-pred``); a variable of a type no family names (``positive``,
``comparison``, ``string``, a header ``Variant``/``Record``, a loaded library's type) gets one
``induction`` that Rocq itself accepts or rejects (``induction-other``); a ``Fixpoint`` that
recurs down two arguments at once gets the second one generalised and destructed
(``induction-pair``).

What is not covered: mutual inductives, nested induction (lists of trees), inversion of
a hypothesis that the step case needs (a premise ``sorted (a :: l)`` of ``induction-hyp``), functional
induction schemes (``Functional Scheme`` needs a command, not a tactic), auxiliary lemmas other
than distribution over ``++``.
"""

from __future__ import annotations

import re

from .family import Focus, family, step
from .goal import Candidate, Domain, GoalInfo, InductionHypotheses, ProblemContext, eval_numeral, is_eq, leading_arg, solve_any

DOMAIN = "induction"

STD_RECURSIVE = ("list", "nat")
"""Recursive standard types whose variables get ``induction``."""
STD_FLAT = ("option", "bool", "prod", "sum")
"""Non-recursive standard types: ``destruct`` is the induction."""


LIST_EQUATIONS = ("app_length", "rev_length", "map_length", "app_nil_r", "app_assoc")
"""The standard library's equations that bring list goals into one normal form (left-nested
``++``, lengths of ``++``/``rev``/``map`` as sums): ``induction-app`` rewrites with them."""


def _type_head(t: str) -> str:
    t = t.strip()
    while t.startswith("(") and t.endswith(")"):
        t = t[1:-1].strip()
    m = re.match(r"[A-Za-z_][\w'.]*", t)
    return m.group(0) if m else ""


def inductive_vars(g: GoalInfo, inductives: tuple[str, ...]) -> list[tuple[str, str]]:
    """``(variable, type head)`` for the goal's variables of an inductive type that occur in the
    conclusion, standard recursive types first, then the header's, then the flat ones."""
    known = STD_RECURSIVE + tuple(inductives) + STD_FLAT
    out = []
    for h in g.hyps:
        head = _type_head(h.type)
        if head not in known or "->" in h.type or "forall" in h.type:
            continue
        for n in h.names:
            if re.search(rf"(?<![\w']){re.escape(n)}(?![\w'])", g.concl):
                out.append((n, head))
    return sorted(out, key=lambda vh: known.index(vh[1]))


def _finish(d: Domain, ctx: ProblemContext) -> str:
    """The closers tried on every goal the induction leaves, after the IH rewrites (those the
    session knows: a file that loads no ``Arith`` has no ``ring``)."""
    if d.real:
        # `field` with its side conditions: a power of a nonzero base (`/ 2 ^ n` in a sum) or linear
        side = "(field; repeat split; solve [apply pow_nonzero; lra | lra | nra])"
        return solve_any(ctx, ("reflexivity", "lra", "nra", "field", "ring", "auto", side))
    # eauto last: witnesses (`exists x, Some v = Some x` after a destruct)
    return solve_any(ctx, ("reflexivity", "lia", "nia", "ring", "congruence", "auto", "(f_equal; auto)", "eauto"))


def _ih_rewrites(v: str) -> str:
    """Rewrite with the induction hypotheses Rocq names after ``v`` (``IHv``, ``IHv1``, ``IHv2``
    for a binary tree), each where it applies; names that do not exist are skipped."""
    return "; ".join(f"try rewrite IH{v}{k}" for k in ("", "0", "1", "2"))


def _others(g: GoalInfo, v: str) -> list[str]:
    """Other variables of the conclusion (not propositions) that an induction on ``v`` should
    generalise: they may change in the recursive call."""
    out = []
    for h in g.hyps:
        if "->" in h.type or re.search(r"[=<>]", h.type):
            continue
        for n in h.names:
            if n != v and re.search(rf"(?<![\w']){re.escape(n)}(?![\w'])", g.concl) and _type_head(h.type) not in ("Type", "Set", "Prop"):
                out.append(n)
    return out


@family("induction-struct", DOMAIN, "close")
def structural_induction(f: Focus, limit: int = 2) -> list[Candidate]:
    """Goal: a statement about a variable of an inductive type (``total (map f l) = total l +
    length l``, ``nodes (flip t) = nodes t``, ``option_map id o = o``). Why: functions defined by
    recursion on that type compute on constructors; after ``simpl`` the recursive case is the
    induction hypothesis plus arithmetic. Flat types (``option``, ``bool``) are destructed.
    At the root and one step below."""
    g, d, ctx = f.g, f.d, f.ctx
    out: list[Candidate] = []
    if f.depth > 1:
        return out
    unfold = _unfold(g, d, ctx)
    fin = _finish(d, ctx)
    for v, head in inductive_vars(g, ctx.inductives)[:limit]:
        # nat: only along a recursion in sight (a header Fixpoint, sum_f_R0); on plain arithmetic
        # the closers would only spend the budget (the `induction` step below covers it)
        fix_in_concl = any(re.search(rf"\b{re.escape(fx.name)}\b", g.concl) for fx in ctx.fixpoints)
        if head == "nat" and not (fix_in_concl or re.search(r"\bsum_f_R0\b", g.concl)):
            continue
        if head in STD_FLAT:
            out.append(Candidate(tactic=f"destruct {v}; {unfold}; {fin}", kind="close", timeout=2, tag="destruct-ind"))
            continue
        casts = "; rewrite ?S_INR, ?plus_INR, ?mult_INR; try change (INR 0) with 0 in *" if d.real else ""
        # `2 ^ S n` over R: `ring` treats a power with a variable exponent as an atom, so the
        # step case's `2 ^ S (S n)` must be unfolded (`pow` computes on `S`) to meet `2 ^ S n`
        step_unfold = unfold.replace("cbn [", "cbn [pow ", 1) if d.real and _in_exponent(g.concl, v) else unfold
        body = f"{step_unfold}; {_ih_rewrites(v)}{casts}; {fin}"
        out.append(Candidate(tactic=f"induction {v}; {body}", kind="close", timeout=3, tag="induction-struct"))
        ih = _ih_rewrites(v)
        conditional = any(fx.conditional and re.search(rf"\b{re.escape(fx.name)}\b", g.all_text) for fx in ctx.fixpoints)
        if conditional or head != "nat":
            # the function computed to `if c then .. else ..` (a header Fixpoint that tests, or a
            # library one over the data: `filter`, `existsb`, `count_occ`): split on each test
            split = f"repeat (match goal with |- context [if ?c then _ else _] => destruct c end; {step_unfold})"
            tac = f"induction {v}; {step_unfold}; {ih}; {split}; {ih}; {fin}"
            out.append(Candidate(tactic=tac, kind="close", timeout=3, tag="induction-if"))
        local = list(ctx.equations)
        if local:
            # the file's own equations about its functions (``sum (l ++ m) = ...``), each tried once
            # where it applies: the step case of a statement built on an earlier lemma of the file
            rw = "; ".join(f"try rewrite {n} in *" for n in local)
            tac = f"induction {v}; {step_unfold}; {rw}; {step_unfold}; {ih}; {fin}"
            out.append(Candidate(tactic=tac, kind="close", timeout=3, tag="induction-local-eq"))
        if head == "list" and re.search(r"\+\+|\b(?:length|rev|map)\b", g.concl):
            # a Fixpoint built from `++`: the step case meets the IH once the library's equations
            # about `++` (`length (l ++ m)`, `l ++ []`, associativity) are rewritten
            lists = f"rewrite ?{', ?'.join(LIST_EQUATIONS)} in *"
            tac = f"induction {v}; {step_unfold}; {lists}; {step_unfold}; {ih}; {fin}"
            out.append(Candidate(tactic=tac, kind="close", timeout=3, tag="induction-app"))
        others = _others(g, v)
        if others:
            gen = "; ".join(f"generalize dependent {o}" for o in others)
            out.append(Candidate(tactic=f"{gen}; induction {v}; intros; {body}", kind="close", timeout=3, tag="induction-gen"))
    return out


def _in_exponent(concl: str, v: str) -> bool:
    """``v`` occurs in the exponent of a power in ``concl`` (``2 ^ S n``, ``x ^ (2 * n)``)."""
    for m in re.finditer(r"\^\s*", concl):
        rest = concl[m.end() :]
        expo = leading_arg(rest) if rest.startswith("(") else re.match(r"[^+\-*/=<>),]*", rest).group(0)  # type: ignore[union-attr]
        if expo and re.search(rf"(?<![\w']){re.escape(v)}(?![\w'])", expo):
            return True
    return False


def _unfold(g: GoalInfo, d: Domain, ctx: ProblemContext) -> str:
    """``simpl in *``, or over ``R`` ``cbn`` restricted to the user's functions in sight (``simpl``
    would unfold ``INR`` and the real numerals)."""
    if not d.real:
        return "simpl in *"
    names = [f.name for f in ctx.fixpoints if re.search(rf"\b{re.escape(f.name)}\b", g.all_text)]
    return f"cbn [{' '.join(names)}] in *" if names else "idtac"


@family("induction-fix2", DOMAIN, "close")
def recursion_induction(f: Focus, limit: int = 1) -> list[Candidate]:
    """Goal: a fact about ``f n`` for a user ``Fixpoint`` ``f`` whose recursion goes two steps
    back (``lucas (S (S m)) = lucas (S m) + lucas m``). Why: plain induction gives a hypothesis
    for ``n - 1`` only; strong induction (``lt_wf_ind``) with ``n`` split into ``0``, ``1`` and
    ``S (S m)`` gives one for every smaller argument, which ``rewrite ... by lia`` then uses.
    At the root and one step below."""
    g, d, ctx = f.g, f.d, f.ctx
    out: list[Candidate] = []
    deep = [fx for fx in ctx.fixpoints if fx.depth >= 2 and re.search(rf"\b{re.escape(fx.name)}\b", g.concl)]
    if not deep or f.depth > 1:
        return out
    fin = _finish(d, ctx)
    unfold = _unfold(g, d, ctx) if d.real else f"cbn [{' '.join(fx.name for fx in deep)}] in *"
    for v in [n for n in g.vars_of("nat") if re.search(rf"\b{re.escape(n)}\b", g.concl)][:limit]:
        out.append(
            Candidate(
                tactic=(
                    f"induction {v} as [{v} IHs_] using lt_wf_ind; destruct {v} as [|[|{v}]]; {unfold}; "
                    f"try rewrite !IHs_ by lia; {fin}"
                ),
                kind="close",
                timeout=3,
                tag="induction-fix2",
            )
        )
        # an inequality needs the hypotheses at both smaller arguments side by side, not rewritten
        out.append(
            Candidate(
                tactic=(
                    f"induction {v} as [{v} IHs_] using lt_wf_ind; destruct {v} as [|[|{v}]]; {unfold}; "
                    f"try (pose proof (IHs_ {v} ltac:(lia)); pose proof (IHs_ (S {v}) ltac:(lia))); {fin}"
                ),
                kind="close",
                timeout=3,
                tag="induction-fix2",
            )
        )
    return out


def _scaled_arguments(g: GoalInfo, ctx: ProblemContext) -> list[tuple[str, str, int]]:
    """``(argument, variable, slope)`` for each header ``Fixpoint`` applied in the conclusion to
    a linear expression ``c * v + d`` of one ``nat`` variable with slope ``c`` in 1..4, other than
    ``v`` itself (``ev (2 * k)``: ``("(2 * k)", "k", 2)``)."""
    concl = " ".join(g.concl.split())
    nats = [n for n in g.vars_of("nat") if re.search(rf"(?<![\w']){re.escape(n)}(?![\w'])", concl)]
    out: list[tuple[str, str, int]] = []
    for fx in ctx.fixpoints:
        for m in re.finditer(rf"(?<![\w'.]){re.escape(fx.name)}\s+", concl):
            arg = leading_arg(concl[m.end() :])
            if not arg or not arg.startswith("("):
                continue  # a bare word: the plain induction families cover it
            for v in nats:
                pat = rf"(?<![\w']){re.escape(v)}(?![\w'])"
                if not re.search(pat, arg):
                    continue
                vals = [eval_numeral(re.sub(pat, str(k), arg)) for k in (0, 1, 2)]
                if any(x is None or x.denominator != 1 for x in vals):
                    continue
                c = int(vals[1] - vals[0])
                if c == vals[2] - vals[1] and 1 <= c <= 4 and (arg, v, c) not in out:
                    out.append((arg, v, c))
    return out


@family("induction-scaled", DOMAIN, "close")
def scaled_argument_induction(f: Focus) -> list[Candidate]:
    """Goal: a user ``Fixpoint`` applied to a multiple of a ``nat`` variable (``ev (2 * k) =
    true``, ``halve (2 * n + 1) = n``). Why: induction on the variable, but in the step case the
    argument ``2 * S k`` is no constructor form, so the ``Fixpoint`` does not compute; written as
    ``S (S (2 * k))`` (checked by ``lia``) it computes ``c`` steps and meets the induction
    hypothesis. At the root and one step below, over ``nat`` arguments."""
    g, d, ctx = f.g, f.d, f.ctx
    if f.depth > 1 or not ctx.fixpoints:
        return []
    fin = _finish(d, ctx)
    unfold = _unfold(g, d, ctx) if d.real else "simpl in *"
    out = []
    for arg, v, c in _scaled_arguments(g, ctx)[:2]:
        pat = rf"(?<![\w']){re.escape(v)}(?![\w'])"
        succ = re.sub(pat, f"(S {v})", arg)
        target = "S (" * c + arg + ")" * c
        out.append(
            Candidate(
                tactic=(
                    f"induction {v}; [{unfold}; {fin} | "
                    f"replace {succ} with ({target}) by lia; {unfold}; {_ih_rewrites(v)}; {fin}]"
                ),
                kind="close",
                timeout=3,
                tag="induction-scaled",
            )
        )
    return out


@family("induction-app-lemma", DOMAIN, "close")
def append_lemma_induction(f: Focus) -> list[Candidate]:
    """Goal: a user ``Fixpoint`` applied to a list built by ``rev`` or ``++`` (``lsum (rev l) =
    lsum l``). Why: the step case meets ``f (r ++ [a])``, which no induction hypothesis matches;
    that ``f`` distributes over ``++`` (``f (u ++ w) = f u + f w`` for a sum, ``f u ++ f w`` for a
    list), proved first by its own induction, turns it into ``f r`` and a constant. At the root
    and one step below; the form that does not type-check fails at once."""
    g, d, ctx = f.g, f.d, f.ctx
    if f.depth > 1 or d.real:
        return []
    concl = " ".join(g.concl.split())
    lists = [v for v, head in inductive_vars(g, ctx.inductives) if head == "list"][:1]
    fixes = [fx.name for fx in ctx.fixpoints if re.search(rf"\b{re.escape(fx.name)}\s+\((?:rev\b|[^()]*\+\+)", concl)][:1]
    if not lists or not fixes:
        return []
    fn, v, fin = fixes[0], lists[0], _finish(d, ctx)
    out = []
    for combine in ("+", "++"):
        lemma = f"forall u_ w_, {fn} (u_ ++ w_) = {fn} u_ {combine} {fn} w_"
        inner = f"intros u_ w_; induction u_; simpl in *; try rewrite IHu_; {fin}"
        tac = f"assert (Hd_ : {lemma}) by ({inner}); induction {v}; simpl in *; rewrite ?Hd_; simpl in *; {_ih_rewrites(v)}; {fin}"
        out.append(Candidate(tactic=tac, kind="close", timeout=3, tag="induction-app-lemma"))
    return out


@family("induction", DOMAIN, "step")
def induction_step(f: Focus) -> list[Candidate]:
    """A ``nat`` variable of the conclusion (over ``R`` only with sums or casts in sight):
    induction on it, then ``simpl``; the induction hypothesis ``IH<v>`` is recorded as an
    ``InductionHypotheses`` fact for ``rewrite-ih``. A step, not a closer: the cases may need
    further steps (rewriting, case splits)."""
    g, d, concl = f.g, f.d, f.concl
    out = []
    for v in g.vars_of("nat")[:2]:
        if re.search(rf"\b{re.escape(v)}\b", concl) and (not d.real or re.search(r"\bsum_f_R0\b|\bsum_n_m\b|\bINR\b", concl)):
            out.append(step(f"induction {v}; simpl in *", 1.5, tag="induction", facts=(InductionHypotheses(names=(f"IH{v}",)),)))
    return out


def _is_ih(name: str, known: set[str]) -> bool:
    """``name`` is one of the recorded induction hypotheses (Rocq adds a digit to a taken name)."""
    return any(name == k or re.fullmatch(rf"{re.escape(k)}\d+", name) for k in known)


@family("rewrite-ih", DOMAIN, "step")
def rewrite_ih(f: Focus) -> list[Candidate]:
    """An induction hypothesis (named by an ``InductionHypotheses`` fact of the path) that is an
    unconditional equation: rewrite the conclusion with it (the step case's usual move)."""
    known = {n for fact in f.facts_of(InductionHypotheses) for n in fact.names}
    if not known:
        return []
    return [
        step(f"rewrite {h.names[0]}", 0.3, tag="rewrite-ih")
        for h in f.g.hyps
        if _is_ih(h.names[0], known) and is_eq(h.type) and not h.type.startswith("forall") and "->" not in h.type
    ]


def _mentions(text: str, v: str) -> bool:
    return bool(re.search(rf"(?<![\w']){re.escape(v)}(?![\w'])", text))


def _premise_hyps(g: GoalInfo, v: str) -> list[str]:
    """Names of the hypotheses that mention ``v`` and are propositions about it (not the
    declarations of other variables): what ``induction v`` generalises into the hypothesis."""
    out: list[str] = []
    for h in g.hyps:
        if v in h.names or not _mentions(h.type, v):
            continue
        out.extend(h.names)
    return out


PREMISE_PROVERS = ("assumption", "lia", "(intros; firstorder)")
"""How a premise of an induction hypothesis is proved from the step case's hypotheses: it is
often one of them (``total l = 0`` from ``a + total l = 0`` by ``lia``) or follows from one by
logic (``forall x, In x l -> P x`` from ``forall x, a = x \\/ In x l -> P x``)."""


def _ih_premises(v: str) -> str:
    """Discharge the premises of the induction hypotheses named after ``v`` (``IHl : P -> Q``
    becomes ``IHl : Q`` once ``P`` is proved, ``PREMISE_PROVERS``); a premise none proves is
    left, and names that do not exist are skipped."""
    prove = "solve [" + " | ".join(PREMISE_PROVERS) + "]"
    return "; ".join(
        f"repeat (match type of IH{v}{k} with ?P -> _ => specialize (IH{v}{k} ltac:({prove})) end)" for k in ("", "0", "1", "2")
    )


def _instances(names: list[str]) -> str:
    """Instantiate each hypothesis ``forall x, ... -> ...`` at a variable of the step case whose
    premise ``auto`` proves (the new head ``a`` of ``a :: l``: ``a = a \\/ In a l``), so that the
    arithmetic closers see the fact about the new element."""
    return "; ".join(
        f"try (match goal with y_ : _ |- _ => pose proof ({n} y_ ltac:(solve [auto | simpl; auto])) end)" for n in names
    )


@family("induction-hyp", DOMAIN, "close")
def hypothesis_induction(f: Focus, limit: int = 2) -> list[Candidate]:
    """Goal: a statement about a variable of an inductive type that hypotheses also speak of
    (``(forall x, In x l -> 1 <= x) -> length l <= total l``; ``total l = 0 -> In k l -> k =
    0``, where ``l`` is only in the hypotheses). Why: ``induction l`` generalises those
    hypotheses, so the induction hypothesis has them as premises (``IHl : (forall x, In x l ->
    ...) -> ...``) and a plain rewrite cannot use it; in the step case the disjunctions the
    hypotheses computed to (``In k (a :: l)``) are split, the induction hypotheses' premises are
    discharged from the step's hypotheses (``PREMISE_PROVERS``), the quantified hypotheses are
    instantiated at the new element, then the arithmetic closers. ``nat`` only along a
    recursion in sight, as ``induction-struct``. At the root and one step below."""
    g, d, ctx = f.g, f.d, f.ctx
    if f.depth > 1:
        return []
    known = STD_RECURSIVE + tuple(ctx.inductives)
    fix_in_concl = any(_mentions(g.concl, fx.name) for fx in ctx.fixpoints)
    out: list[Candidate] = []
    seen: set[str] = set()
    for h in g.hyps:
        head = _type_head(h.type)
        if head not in known or head in ctx.predicates or "->" in h.type or "forall" in h.type:
            continue
        if head == "nat" and not (fix_in_concl or re.search(r"\bsum_f_R0\b", g.concl)):
            continue
        for v in h.names:
            premises = _premise_hyps(g, v)
            if v in seen or not premises or len(seen) >= limit:
                continue
            seen.add(v)
            split = "repeat (match goal with H_ : _ \\/ _ |- _ => destruct H_ end); subst"
            quantified = [n for n in premises if any(n in hh.names and hh.type.startswith("forall") for hh in g.hyps)]
            inst = f"; {_instances(quantified)}" if quantified else ""
            tac = f"induction {v}; {_unfold(g, d, ctx)}; {split}; {_ih_premises(v)}{inst}; {_ih_rewrites(v)}; {_finish(d, ctx)}"
            out.append(Candidate(tactic=tac, kind="close", timeout=3, tag="induction-hyp"))
    return out


STD_PREDICATES = ("Forall", "Exists", "Forall2", "NoDup")
"""Inductive predicates of the standard library's lists that ``induction-pred`` runs over like
the header's (``Forall P l``: one case per element, with the fact about it and an induction
hypothesis for the rest)."""


WITNESS = (
    "first [exists 0; lia | exists 1; lia | "
    "match goal with x_ : nat |- exists _ : nat, _ => solve [exists x_; lia | exists (S x_); lia] end]"
)
"""A witness for ``exists k : nat, ...``: ``0``, ``1``, or one of the goal's variables or its
successor (``exists (S k)`` for ``S (S n) = 2 * S k`` once ``IH : n = 2 * k`` is destructed);
Ltac's ``match`` backtracks over the variables until ``lia`` closes the goal."""


@family("induction-pred", DOMAIN, "close")
def predicate_induction(f: Focus, limit: int = 2) -> list[Candidate]:
    """Goal: a consequence of a hypothesis of an inductive predicate: a header ``Inductive ... :
    ... -> Prop`` (``ev n -> exists k, n = 2 * k``, ``ev n -> ev m -> ev (n + m)``), a list
    predicate of the library (``STD_PREDICATES``: ``Forall P l -> ...``) or ``<=`` on
    ``nat`` with a header ``Fixpoint`` in the conclusion (``a <= b -> tri a <= tri b``). Why: the
    proof follows the derivation of the hypothesis: ``induction H`` has one case per
    constructor, with an induction hypothesis for each premise of the constructor; the
    existentials of the induction hypotheses are destructed, then the arithmetic closers, the
    predicate's constructors (``constructor; auto``) or a witness among the case's variables
    (``WITNESS``). At the root and one step below."""
    g, d, ctx = f.g, f.d, f.ctx
    if f.depth > 1 or d.real:
        return []
    fix_in_concl = any(_mentions(g.concl, fx.name) for fx in ctx.fixpoints)
    names: list[str] = []
    for h in g.hyps:
        typ = " ".join(h.type.split())
        pred = _type_head(typ) in ctx.predicates + STD_PREDICATES
        le = fix_in_concl and re.fullmatch(r"[^<>=]+<=?[^<>=]+", typ) and not re.search(r"%Z|\bZ\b", typ)
        if (pred or le) and "->" not in typ and "forall" not in typ:
            names.extend(h.names)
    out: list[Candidate] = []
    closers = ("reflexivity", "lia", "nia", "congruence", "auto", "eauto", "(constructor; auto)", "(econstructor; eauto)", WITNESS)
    fin = solve_any(ctx, closers)
    for n in names[:limit]:
        exists = "repeat (match goal with E_ : exists _, _ |- _ => destruct E_ end)"
        tac = f"induction {n}; {_unfold(g, d, ctx)}; {exists}; {fin}"
        out.append(Candidate(tactic=tac, kind="close", timeout=3, tag="induction-pred"))
    return out


HANDLED_TYPES = frozenset(STD_RECURSIVE + STD_FLAT) | {"R", "Z", "Q", "C", "N", "Prop", "Set", "Type"}
"""Type heads ``induction-other`` leaves alone: the standard types the other families handle,
and the number types, where an induction is no proof method the search should spend time on
(``R`` and ``C`` are no inductive types, ``Z``/``N``/``Q`` are better left to the deciders)."""


def other_inductive_vars(g: GoalInfo, ctx: ProblemContext) -> list[str]:
    """Variables of the goal (in the conclusion or in a hypothesis) whose type is a single
    name that neither the other induction families nor the number domains handle and that is no
    variable of the goal itself (``A : Type``, ``P : Prop``): ``positive``, ``comparison``,
    ``string``, a ``Record`` or ``Variant`` of the header, a type of a loaded library. Whether it
    is inductive is Rocq's to say: ``induction`` fails at once on a type that is not."""
    declared = set(g.hyp_names())
    used_as_types = {h.type.strip() for h in g.hyps}
    out = []
    for h in g.hyps:
        t = h.type.strip()
        if not re.fullmatch(r"[A-Za-z_][\w'.]*", t) or t in HANDLED_TYPES or t in ctx.inductives or t in declared:
            continue
        for v in h.names:
            # a variable that is itself a type of the goal (``T : finType``, ``x : T``) is a structure, no data
            if v not in used_as_types and (_mentions(g.concl, v) or _premise_hyps(g, v)):
                out.append(v)
    return out


@family("induction-other", DOMAIN, "close")
def other_type_induction(f: Focus, limit: int = 1) -> list[Candidate]:
    """Goal: a statement about a variable of an inductive type the header does not declare and
    the search has no name for (``flip (flip c) = c`` for ``c : comparison``, ``1 <= digits p``
    for ``p : positive``, ``length (s ++ t)`` over ``string``). Why: the type comes from a loaded
    library (or a header ``Record``/``Variant``); ``induction`` asks Rocq whether it is
    inductive (it fails at once when it is not) and computes the functions on its
    constructors, then the induction hypotheses and the closers. One variable, 2 s: it is
    proposed only for goals with a variable of such a type. At the root and one step below."""
    g, d, ctx = f.g, f.d, f.ctx
    if f.depth > 1 or d.real:
        return []
    out = []
    for v in other_inductive_vars(g, ctx)[:limit]:
        tac = f"induction {v}; {_unfold(g, d, ctx)}; {_ih_rewrites(v)}; {_finish(d, ctx)}"
        out.append(Candidate(tactic=tac, kind="close", timeout=2, tag="induction-other"))
    return out


@family("induction-pair", DOMAIN, "close")
def paired_induction(f: Focus, limit: int = 2) -> list[Candidate]:
    """Goal: a header ``Fixpoint`` in the conclusion with two variables of inductive types in
    sight (``length (take n l) = n`` under ``n <= length l``, where ``take`` matches on ``n``
    and ``l`` together). Why: the recursion goes down both arguments at once, so the second
    variable must be generalised (the induction hypothesis then holds for every ``l``) and
    destructed in each case for the ``Fixpoint`` to compute; a conditional induction
    hypothesis is rewritten with its side condition left to the closers. Both orders, at the
    root and one step below."""
    g, d, ctx = f.g, f.d, f.ctx
    if f.depth > 1 or d.real or not any(_mentions(g.concl, fx.name) for fx in ctx.fixpoints):
        return []
    known = STD_RECURSIVE + tuple(ctx.inductives)
    vs = [v for h in g.hyps if _type_head(h.type) in known and "->" not in h.type for v in h.names if _mentions(g.concl, v)]
    if len(vs) < 2:
        return []
    out = []
    for v, o in [(vs[0], vs[1]), (vs[1], vs[0])][:limit]:
        tac = f"generalize dependent {o}; induction {v}; intros; destruct {o}; {_unfold(g, d, ctx)}; {_ih_rewrites(v)}; {_finish(d, ctx)}"
        out.append(Candidate(tactic=tac, kind="close", timeout=3, tag="induction-pair"))
    return out
