"""Curriculum: deterministic, disjoint splits, all families and difficulties, witnesses compile."""


import pytest

from rl.curriculum import FAMILIES, generate, split_of

ALL = tuple(FAMILIES)


def test_deterministic_by_seed_and_seed_matters():
    a = generate(ALL, 3, 50, 10, seed=1)
    b = generate(ALL, 3, 50, 10, seed=1)
    c = generate(ALL, 3, 50, 10, seed=2)
    assert a == b
    assert [p.statement for p in a[0]] != [p.statement for p in c[0]]


def test_splits_disjoint_by_construction():
    train, held = generate(ALL, 3, 300, 60, seed=0)
    assert len(train) == 300 and len(held) == 60
    assert not {(p.family, p.statement) for p in train} & {(p.family, p.statement) for p in held}
    assert all(split_of(p.family, p.statement) == "train" for p in train)
    assert all(split_of(p.family, p.statement) == "heldout" for p in held)
    # another seed's held-out problems never appear in this seed's train set
    _, held2 = generate(ALL, 3, 10, 60, seed=5)
    assert not {p.statement for p in held2} & {p.statement for p in train}


def test_every_family_and_difficulty_present_and_text_shape():
    train, _ = generate(ALL, 3, 200, 10, seed=0)
    assert {(p.family, p.difficulty) for p in train} == {(f, d) for f in ALL for d in (1, 2, 3)}
    for p in train:
        assert p.text.rstrip().endswith("Admitted.") and f"Theorem {p.name} " in p.text
        assert p.with_proof("lia.").rstrip().endswith("Qed.")
        assert p.family not in p.statement  # the name (which carries the family) is not in the statement


def test_unknown_family_is_an_error():
    with pytest.raises(ValueError, match="unknown curriculum families"):
        generate(("nope",), 1, 1, 1)


@pytest.mark.rocq
def test_witnesses_compile_and_a_wrong_tactic_does_not():
    from lean_tools.rocq.checker import RocqChecker

    train, held = generate(ALL, 3, 36, 6, seed=3)
    seen = {}
    for p in train + held:
        seen.setdefault((p.family, p.difficulty), p)
    chk = RocqChecker()
    by_header: dict[str, list] = {}
    for p in seen.values():
        by_header.setdefault(p.header, []).append(p)
    for header, ps in by_header.items():  # one coqc per header: all its theorems with their witnesses
        text = header + "\n" + "".join(p.with_proof(p.witness)[len(header) + 1 if header else 0:] for p in ps)
        fc = chk.check_file(text, timeout=120)
        assert fc.ok, (header, [m.text for m in fc.errors], text)
        assert text.count("Qed.") == len(ps)
    # families need different tactics: lia cannot do tautologies or Q ring identities
    for fam in ("taut", "ring_q"):
        p = seen[(fam, 2)]
        assert not chk.check_file(p.with_proof("lia."), timeout=60).ok


def test_minif2f_valid_problems_round_trip_and_test_split_is_refused():
    import pytest

    from rl.curriculum import minif2f_problems

    train, held = minif2f_problems("valid")  # the bundled benchmarks/data
    assert train and held and {p.family for p in train + held} == {"minif2f"}
    assert not {p.id for p in train} & {p.id for p in held}
    p = train[0]
    assert f"Theorem {p.name} " in p.text and p.text.rstrip().endswith("Admitted.")
    with pytest.raises(ValueError, match="not a training split"):
        minif2f_problems("test")
