"""Session rolls bind what a check rolls, not how it is written, and a name by what it looks like.

A player holding the session code can work out a number's dice for any check; if equivalent ways of
writing one check (GURPS modifiers that cancel, ``1d6+1d6+3`` for ``2d6+3``, ``Gunnаr`` with a
Cyrillic ``а`` for ``Gunnar``) gave other dice, they could choose among them. Links of version 4
derive the seed from the check's canonical form and the name's skeleton; older links keep theirs.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import FateCheck, GurpsCheck, InputError, OneRingCheck, QuickContest, RegularContest, links, make_check
from engine.canonical import canonical_form
from engine.roller import MAX_TERMS, DiceExpression, DiceTerm, parse_dice
from engine.skeleton import skeleton

SESSION_VECTORS = json.loads(Path(__file__).with_name("session_vectors.json").read_text(encoding="utf-8"))
CODE = "Friday"


def session_roll(check, number=7, name="Gunnar", version=links.SESSION_LINK_VERSION):
    """The verdict of the session link of ``check`` at ``number``, rolled with the seed of ``version``."""
    seed = links.session_roll_seed(CODE, number, check, name, version=version)
    payload = links.encode_roll_link(check, seed=seed, session_code=CODE, number=number, name=name)
    verdict = links.verify(payload)
    assert verdict.verified and verdict.link.version == (
        links.SESSION_LINK_VERSION if version == links.SESSION_LINK_VERSION else links._written_version(check.system)
    )
    return verdict


def zero_sums():
    """Every list of up to three GURPS modifiers from −8 to +9 that adds up to nothing (260 lists)."""
    values = range(-8, 10)
    return [()] + [m for n in (1, 2, 3) for m in itertools.product(values, repeat=n) if sum(m) == 0]


def test_gurps_modifiers_that_cancel_give_one_roll():
    checks = [GurpsCheck(12, m) for m in zero_sums()]
    assert len(checks) == 260
    new = {links.session_roll_seed(CODE, 7, c, "Gunnar") for c in checks}
    assert len(new) == 1
    rolls = {(r.dice, r.outcome) for r in (session_roll(c).roll for c in checks)}
    assert len(rolls) == 1
    # what the derivation of versions 1 to 3 gave: 151 different throws, 6 of them critical successes
    old = [session_roll(c, version=links.LINK_VERSION).roll for c in checks]
    assert len({r.dice for r in old}) == 151
    assert sum(r.outcome == "critical_success" for r in old) == 6


def test_gurps_binds_the_effective_skill_only():
    assert canonical_form(GurpsCheck(12, (-8, 9, -1))) == canonical_form(GurpsCheck(12)) == (12,)
    assert canonical_form(GurpsCheck(10, (2,))) == canonical_form(GurpsCheck(12))
    assert canonical_form(GurpsCheck(12, defence=True)) == canonical_form(GurpsCheck(12))
    assert links.session_roll_seed(CODE, 1, GurpsCheck(13), "A") != links.session_roll_seed(
        CODE, 1, GurpsCheck(12), "A"
    )


@pytest.mark.parametrize("other", ["1d6+1d6+3", "d6+d6+3", "1d6+3+1d6", " 2D6 + 3 "])
def test_free_dice_spellings_of_one_distribution_give_the_same_dice(other):
    base, rewritten = session_roll(parse_dice("2d6+3")), session_roll(parse_dice(other))
    assert rewritten.link.seed == base.link.seed
    assert rewritten.roll.total == base.roll.total
    assert [f for faces in rewritten.roll.faces for f in faces] == list(base.roll.faces[0])


def test_free_dice_are_drawn_in_the_canonical_order():
    assert parse_dice("d8+d6+d6").canonical.text == "2d6+1d8"
    assert parse_dice("2d6-1d6").canonical.text == "3d6-7"
    assert parse_dice("21-4d6k3").canonical.text == "4d6kl3"
    assert parse_dice("7-1d6").canonical == parse_dice("1d6")
    for a, b in [("d8+d6+d6", "2d6+d8"), ("2d6-1d6", "3d6-7"), ("21-4d6k3", "4d6kl3"), ("d20-d4", "-d4+d20")]:
        first, second = session_roll(parse_dice(a)), session_roll(parse_dice(b))
        assert first.link.seed == second.link.seed and first.roll.total == second.roll.total
    # a subtracted die shows its own face: the canonical die counted from the top
    roll = parse_dice("2d6-1d6").roll_canonical(5)
    assert roll.total == sum(roll.faces[0]) - roll.faces[1][0]


def test_a_name_that_only_looks_the_same_gives_the_same_dice_and_one_numbering():
    latin, cyrillic = "Gunnar", "Gunn\u0430r"
    assert latin != cyrillic and skeleton(latin) == skeleton(cyrillic)
    check = GurpsCheck(12)
    first, second = session_roll(check, 1, latin), session_roll(check, 2, cyrillic)
    assert links.session_roll_seed(CODE, 2, check, latin) == second.link.seed
    assert session_roll(check, 2, latin).roll.dice == second.roll.dice
    (group,) = links.find_gaps([first.link.payload, second.link.payload])
    assert (group.numbers, group.missing, group.duplicates) == ((1, 2), (), ())
    assert group.name == latin and group.look_alikes == (cyrillic,) and not group.complete
    # the same number under the look-alike is a roll made again, not a numbering of its own
    again = session_roll(check, 1, cyrillic)
    (group,) = links.find_gaps([first.link.payload, second.link.payload, again.link.payload])
    assert group.duplicates == (1,)
    # the spelling seen most is the name shown; the others are listed
    assert group.name == cyrillic and group.to_dict()["look_alikes"] == [latin]


def test_the_other_systems_bind_the_numbers_their_roll_uses():
    assert canonical_form(OneRingCheck(rating=3, bonus_dice=1)) == canonical_form(OneRingCheck(rating=4))
    assert canonical_form(OneRingCheck(rating=0, weary=True)) == canonical_form(OneRingCheck(rating=0))
    assert canonical_form(OneRingCheck(rating=1, weary=True)) != canonical_form(OneRingCheck(rating=1))
    assert canonical_form(RegularContest(20, 18)) == canonical_form(RegularContest(14, 12, high_skill_rule=False))
    assert canonical_form(RegularContest(12, 11)) == canonical_form(RegularContest(12, 11, high_skill_rule=False))
    assert canonical_form(QuickContest(12, 11)) != canonical_form(QuickContest(11, 12))
    assert canonical_form(FateCheck(7, 2, 2, 3)) == canonical_form(FateCheck(7)) == (7, 0)
    # a table's option, shown in the link: the same dice, read either way (not one more try at them)
    assert canonical_form(FateCheck(7, ties_succeed=True)) == canonical_form(FateCheck(7))


# -- random rewrites that keep what a check rolls --------------------------------------------------


@st.composite
def split(draw, total, low, high, most):
    """A list of at most ``most`` numbers in [low, high] adding up to ``total`` (``None`` if none)."""
    parts = draw(st.lists(st.integers(low, high), max_size=most - 1))
    rest = total - sum(parts)
    return [*parts, rest] if low <= rest <= high else None


@st.composite
def gurps_rewrites(draw):
    effective = draw(st.integers(3, 30))
    versions = []
    for _ in range(2):
        skill = draw(st.integers(-20, 40))
        modifiers = draw(split(effective - skill, -30, 30, 6))
        versions.append(GurpsCheck(skill, tuple(modifiers)) if modifiers is not None else GurpsCheck(effective))
    return versions


@st.composite
def one_ring_rewrites(draw):
    dice, tn, mode = draw(st.integers(0, 12)), draw(st.integers(1, 40)), draw(st.sampled_from(["normal", "favoured"]))
    miserable = draw(st.booleans())
    weary = draw(st.booleans())
    out = []
    for _ in range(2):
        rating = draw(st.integers(max(0, dice - 6), min(6, dice)))
        out.append(
            OneRingCheck(
                rating=rating,
                tn=tn,
                feat_mode=mode,
                bonus_dice=dice - rating,
                weary=weary if dice else draw(st.booleans()),
                miserable=miserable,
            )
        )
    return out


@st.composite
def fate_rewrites(draw):
    skill, modifier, ties = draw(st.integers(0, 30)), draw(st.integers(-20, 20)), draw(st.booleans())
    out = []
    for _ in range(2):
        spent = draw(st.integers(0, min(30, 20 - modifier)))
        held = draw(st.one_of(st.none(), st.integers(spent, 30)))
        out.append(FateCheck(skill, modifier + spent, spent, held, ties))
    return out


@st.composite
def contest_rewrites(draw):
    a, b = draw(st.integers(-20, 40)), draw(st.integers(-20, 40))
    contest = RegularContest(a, b)
    if contest.adjusted_skills != (a, b):
        return [contest, RegularContest(*contest.adjusted_skills, high_skill_rule=False)]
    return [contest, RegularContest(a, b, high_skill_rule=draw(st.booleans()))]


@st.composite
def dice_rewrites(draw):
    """One expression, and the same distribution with plain terms split, terms shuffled and some reflected."""
    terms = draw(
        st.lists(
            st.tuples(st.integers(1, 4), st.sampled_from([4, 6, 8, 20]), st.sampled_from([1, -1])),
            min_size=1,
            max_size=4,
        )
    )
    constant = draw(st.integers(-50, 50))
    base = DiceExpression(tuple(DiceTerm(n, s, sign=sign) for n, s, sign in terms), constant)
    pieces = []
    spare = MAX_TERMS - len(terms)  # a roll has at most MAX_TERMS kinds of dice: each split spends one
    for n, s, sign in terms:
        while n:
            take = draw(st.integers(1, n)) if spare > 0 else n
            spare -= take < n
            pieces.append((take, s, sign))
            n -= take
    rewritten, shift = [], 0
    for take, s, sign in draw(st.permutations(pieces)):
        if draw(st.booleans()):  # -NdS is +NdS - N(S+1), and the other way round
            shift += sign * take * (s + 1)
            sign = -sign
        rewritten.append(DiceTerm(take, s, sign=sign))
    return [base, DiceExpression(tuple(rewritten), constant + shift)]


LOOK_ALIKES = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441", "x": "\u0445", "y": "\u0443"}


@st.composite
def names(draw):
    """A name, and the same name with some Latin letters swapped for Cyrillic ones that look the same."""
    name = draw(st.text(alphabet="GunarpecoxyFd ", min_size=1, max_size=12).map(str.strip).filter(bool))
    swapped = "".join(LOOK_ALIKES[c] if c in LOOK_ALIKES and draw(st.booleans()) else c for c in name)
    return [name, swapped]


@settings(max_examples=150, deadline=None)
@given(
    pair=st.one_of(gurps_rewrites(), one_ring_rewrites(), fate_rewrites(), contest_rewrites(), dice_rewrites()),
    spellings=names(),
    number=st.integers(1, 1000),
)
def test_random_equivalent_rewrites_keep_the_seed_and_the_roll(pair, spellings, number):
    first, second = pair
    assert canonical_form(first) == canonical_form(second)
    rolls = [session_roll(check, number, name) for check, name in zip(pair, spellings, strict=True)]
    assert rolls[0].link.seed == rolls[1].link.seed
    assert rolls[0].link.claim == rolls[1].link.claim


# -- versions -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("vector", SESSION_VECTORS, ids=lambda v: f"v{v['version']}-{v['system']}-{v['number']}")
def test_session_vectors(vector):
    """Old links keep verifying with the derivation they were made with; new ones are pinned too."""
    check = parse_dice(vector["check"]["expression"]) if vector["system"] == "dice" else None
    check = check or make_check(vector["system"], vector["check"])
    version = vector["version"]
    assert links.session_roll_seed(CODE, vector["number"], check, vector["name"], version=version) == vector["seed"]
    verdict = links.verify(vector["link"])
    assert verdict.verified and verdict.link.version == version and verdict.link.seed == vector["seed"]
    assert verdict.link.claim.to_dict() == vector["claim"]
    made = links.encode_roll_link(
        check, seed=vector["seed"], session_code=CODE, number=vector["number"], name=vector["name"]
    )
    assert made == vector["link"]


def test_vectors_cover_both_derivations():
    assert {v["version"] for v in SESSION_VECTORS} == {2, 3, 4}
    by_version = {}
    for v in SESSION_VECTORS:
        by_version.setdefault(v["version"] == 4, set()).add(v["system"])
    assert (
        by_version[True] == by_version[False] == {"one-ring", "gurps", "gurps-quick", "gurps-regular", "fate", "dice"}
    )


def test_the_new_derivation_is_what_the_documentation_says():
    import hashlib

    from engine.rng import session_seed

    check = OneRingCheck(rating=2, tn=13, feat_mode="favoured", bonus_dice=1)
    # system 0; five numbers: 3 success dice, TN 13, favoured, not weary, not miserable (zigzag varints)
    fields = bytes([0, 5, 6, 26, 2, 0, 0])
    name = skeleton("Фродо").encode()
    blob = b"kostka-roll-v2\0" + session_seed("MORIA", 3).to_bytes(8, "big") + fields + bytes([len(name)]) + name
    seed = links.session_roll_seed("MORIA", 3, check, "Фродо")
    assert seed == int.from_bytes(hashlib.sha256(blob).digest()[:8], "big") == 2191402098062350569


def test_a_roll_kept_from_before_keeps_its_link_version():
    check = FateCheck(7, difficulty=2)
    old_seed = links.session_roll_seed(CODE, 3, check, "Hero", version=2)
    assert (
        links.decode_link(
            links.encode_roll_link(check, seed=old_seed, session_code=CODE, number=3, name="Hero")
        ).version
        == 2
    )
    with pytest.raises(InputError):
        links.encode_roll_link(check, seed=old_seed + 1, session_code=CODE, number=3, name="Hero")
    with pytest.raises(InputError):
        links.session_roll_seed(CODE, 3, check, "Hero", version=9)
