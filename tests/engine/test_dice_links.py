"""Free dice rolls as share links: round trips, fixed vectors, session numbering, hostile links."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import InputError, links
from engine.cli import main
from engine.links import Claim, Kind, Status, decode_link, verify
from engine.roller import parse_dice

EXPRESSIONS = ["3d6", "2d6+3", "4d6 keep 3", "d12", "d100", "2d20kl1-1d4+5", "-1d8+10", "7", "1d1000", "100d10"]

#: (expression, seed) -> (payload, total, faces): any change to the link layout or the generator breaks them.
VECTORS = [
    ("3d6", 42, "AwEFAQMGAAAAAAAAAAAAAAAAKhRMPoeEPKU", 10, [[4, 5, 1]]),
    ("4d6 keep 3", 7, "AwEFAQQGAgMAAAAAAAAAAAAAAAcS_u4TkyWh", 9, [[2, 3, 3, 3]]),
    ("2d6+3", 0, "AwEFAQIGAAYAAAAAAAAAAAAAABz0X6z9Kac", 14, [[5, 6]]),
    ("d100", 2**64 - 1, "AwEFAQFkAAAAAAD__________4oBZ-P6W5tc", 69, [[69]]),
    ("2d20kl1-1d4+5", 123456789, "AwEFAgIUBAEBBAEKAAAAAAAAAAdbzRUSSZeiTIac", 9, [[15, 8], [4]]),
    ("d12", 1, "AwEFAQEMAAAAAAAAAAAAAAAAAQ4IvJGqTLk", 7, [[7]]),
]

WORST_NAME = ("Жř" * links.MAX_NAME_LENGTH)[: links.MAX_NAME_LENGTH]
WORST_LABEL = ("Щů" * links.MAX_LABEL_LENGTH)[: links.MAX_LABEL_LENGTH]
WORST_CODE = ("ЁČ" * links.MAX_CODE_LENGTH)[: links.MAX_CODE_LENGTH]
#: The most bytes an expression takes in a link: ten terms of four bytes and a three-byte constant.
WORST_DICE = "-10d10kl9" * 10 + "-10000"


@pytest.mark.parametrize("text", EXPRESSIONS)
def test_a_dice_roll_link_round_trips_and_verifies(text):
    expression = parse_dice(text)
    for seed in (0, 1, 42, 2**64 - 1):
        payload = links.encode_roll_link(expression, seed=seed, name="Фродо")
        link = decode_link(payload)
        assert (link.kind, link.system, link.check, link.seed, link.name, link.version) == (
            Kind.ROLL,
            "dice",
            expression,
            seed,
            "Фродо",
            links.DICE_LINK_VERSION,
        )
        verdict = verify(payload)
        assert verdict.status is Status.VERIFIED
        assert verdict.roll == expression.roll(seed)  # the very same dice, recomputed from the seed
        assert link.claim == Claim((), "total", total=expression.roll(seed).total)


@pytest.mark.parametrize(("text", "seed", "payload", "total", "faces"), VECTORS)
def test_fixed_dice_link_vectors(text, seed, payload, total, faces):
    assert links.encode_roll_link(parse_dice(text), seed=seed) == payload
    roll = verify(payload).roll
    assert (roll.total, [list(f) for f in roll.faces], roll.seed) == (total, faces, seed)


def test_a_session_dice_roll_takes_the_sessions_seed_and_shows_in_the_numbering():
    expression = parse_dice("3d6")
    payloads = [links.encode_roll_link(expression, session_code="Friday", number=n, name="Ada") for n in (1, 3)]
    first = decode_link(payloads[0])
    assert first.seed == links.session_roll_seed("Friday", 1, expression, "Ada") == 15317532072229387830
    assert verify(payloads[0]).roll.faces == ((5, 4, 6),)
    assert payloads[0] == "BAEFAQMGAAADQWRhAAEGRnJpZGF5AR6r-xVYtmI" and first.version == links.SESSION_LINK_VERSION
    # the link of version 3 made before the seed bound the canonical form keeps its dice and its verdict
    old = verify("AwEFAQMGAAADQWRhAAEGRnJpZGF5ARBRZ1fPhBk")
    assert old.verified and old.roll.faces == ((2, 3, 3),) and old.link.version == links.DICE_LINK_VERSION
    assert old.link.seed == links.session_roll_seed("Friday", 1, expression, "Ada", version=3) == 17992321320951467591
    again = links.encode_roll_link(parse_dice("2d6"), session_code="Friday", number=3, name="Ada")
    (group,) = links.find_gaps([*payloads, again])
    assert (group.numbers, group.missing, group.duplicates) == ((1, 3), (2,), (3,))
    # another expression at the same number is another roll; a given seed must be the session's
    with pytest.raises(InputError) as info:
        links.encode_roll_link(expression, seed=5, session_code="Friday", number=1, name="Ada")
    assert info.value.field == "seed"


def test_the_longest_dice_link_fits_the_payload_limit():
    payload = links.encode_roll_link(
        parse_dice(WORST_DICE), session_code=WORST_CODE, number=links.MAX_NUMBER, name=WORST_NAME, label=WORST_LABEL
    )
    assert len(payload) <= links.MAX_PAYLOAD_LENGTH
    assert verify(payload).verified


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 10), st.sampled_from([2, 4, 6, 8, 10, 12, 20]), st.sampled_from(["", "k1", "kl2"])),
        min_size=1,
        max_size=4,
    ),
    st.integers(-50, 50),
    st.integers(0, 2**64 - 1),
)
def test_any_expression_within_bounds_round_trips(terms, constant, seed):
    text = "+".join(f"{n}d{s}{keep if keep and n > int(keep[-1]) else ''}" for n, s, keep in terms) + f"{constant:+d}"
    expression = parse_dice(text)
    verdict = verify(links.encode_roll_link(expression, seed=seed))
    assert verdict.verified and verdict.roll == expression.roll(seed)


def test_an_edited_total_or_seed_is_caught():
    payload = links.encode_roll_link(parse_dice("3d6"), seed=42)
    link = decode_link(payload)
    forged = links.encode_link(link.__class__(**{**link.__dict__, "claim": Claim((), "total", total=18)}))
    assert verify(forged).mismatches == ("claim.total",)
    reseeded = links.encode_link(link, digest=b"\0" * 6)
    assert verify(reseeded).mismatches == ("digest",)


def test_dice_are_shared_as_rolls_only():
    with pytest.raises(InputError):
        links.encode_check_link(parse_dice("3d6"))
    with pytest.raises(InputError):
        links.encode_secret_link(parse_dice("3d6"), seed=1)


# -- hostile links ------------------------------------------------------------------------------------


def _uv(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _dice_payload(fields: bytes, version: int = 3, kind: int = 1, total: int = 0) -> str:
    """A dice link as a hostile sender would write it: any fields, a correct digest."""
    body = bytes([version, kind, 5]) + fields + b"\0\0"
    if kind == 1:
        body += b"\0" + bytes(8) + _uv(total * 2 if total >= 0 else -total * 2 - 1)
    return links._b64encode(body + links._digest(body))


def _term(count: int, sides: int, flags: int = 0, kept: int | None = None) -> bytes:
    return _uv(count) + _uv(sides) + bytes([flags]) + (b"" if kept is None else _uv(kept))


@pytest.mark.parametrize(
    ("fields", "what"),
    [
        (_uv(1) + _term(10**20, 6) + b"\0", "dice"),  # a huge count is refused as it is read
        (_uv(1) + _term(2**63, 2**63) + b"\0", "dice"),
        (_uv(1) + _term(101, 6) + b"\0", "dice"),
        (_uv(2) + _term(60, 6) + _term(60, 6) + b"\0", "dice"),  # 120 dice in all
        (_uv(1) + _term(0, 6) + b"\0", "dice"),
        (_uv(1) + _term(3, 10**9) + b"\0", "sides"),
        (_uv(1) + _term(3, 1) + b"\0", "sides"),
        (_uv(1) + _term(2, 1000) + b"\0", "pips"),  # 2 × 1000: the exact odds would take too long
        (_uv(1) + _term(4, 6, 2, 10**12) + b"\0", "keep"),
        (_uv(1) + _term(4, 6, 2, 9) + b"\0", "keep"),
        (_uv(1) + _term(20, 6, 2, 3) + b"\0", "keep-size"),
        (_uv(11) + _term(1, 6) * 11 + b"\0", "terms"),
        (_uv(10**15), "terms"),
        (_uv(0) + _uv(20_002), "constant"),
    ],
)
def test_a_hostile_expression_is_refused_with_the_rollers_bound(fields, what):
    with pytest.raises(InputError) as info:
        verify(_dice_payload(fields))
    assert info.value.field == "link.check.dice"
    assert info.value.params.get("what") == what, info.value


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        (_dice_payload(_uv(1) + _term(3, 6, 6) + b"\0"), "link.check.dice"),  # an unknown keep mode
        (_dice_payload(_uv(1) + _term(3, 6, 2, 3) + b"\0"), "link"),  # keeps all three: not canonical
        (_dice_payload(_uv(1) + _term(3, 6) + b"\0", version=2), "link.system"),  # version 2 has no free dice
        (_dice_payload(_uv(1) + _term(3, 6) + b"\0", kind=0), "link.kind"),
        (_dice_payload(_uv(1) + _term(3, 6) + b"\0", version=5), "link.version"),
    ],
)
def test_malformed_dice_links_name_the_field(payload, field):
    with pytest.raises(InputError) as info:
        decode_link(payload)
    assert info.value.field == field, info.value


def test_older_links_still_read_beside_dice_links():
    from engine import FateCheck

    old = links.encode_roll_link(FateCheck(skill=7), seed=3)
    assert decode_link(old).version == links.LINK_VERSION == 2  # the systems' links are written as before
    assert verify(old).verified


# -- the command line -----------------------------------------------------------------------------------


def run(capsys, *argv):
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_link_commands_make_and_read_a_dice_link(capsys):
    status, out, err = run(capsys, "link", "dice", "4d6", "keep", "3", "--seed", "7")
    assert status == 0 and not err
    made = json.loads(out)
    assert made["payload"] == VECTORS[1][2] and made["roll"]["total"] == 9
    status, out, _ = run(capsys, "link", "verify", "https://example.org/#r=" + made["payload"])
    verdict = json.loads(out)
    assert (status, verdict["status"], verdict["roll"]["terms"][0]["faces"]) == (0, "verified", [2, 3, 3, 3])
    status, out, _ = run(capsys, "link", "dice", "3d6", "--session", "Friday", "--number", "1", "--name", "Ada")
    assert json.loads(out)["payload"] == "BAEFAQMGAAADQWRhAAEGRnJpZGF5AR6r-xVYtmI"
    status, out, _ = run(capsys, "link", "gaps", "AwEFAQMGAAADQWRhAAEGRnJpZGF5ARBRZ1fPhBk")
    assert json.loads(out)["sessions"][0]["numbers"] == [1]


def test_a_hostile_dice_link_exits_2_with_one_line(capsys):
    status, out, err = run(capsys, "link", "verify", _dice_payload(_uv(1) + _term(10**20, 6) + b"\0"))
    assert (status, out) == (2, "")
    assert err.startswith("InputError: link.check.dice:") and err.count("\n") == 1
