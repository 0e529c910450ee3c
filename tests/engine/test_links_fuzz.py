"""Fuzzing the link decoder: over ten thousand generated inputs per run, only InputError may escape.

Each test sets ``max_examples`` itself (the CI profile's default is lower):
2,000 random texts + 2,500 random byte strings + 3,500 mutated valid links
+ 2,000 well-framed random bodies + 1,000 JSON values = 11,000 generated inputs.
Strategies are kept cheap (mostly raw bytes read as edit programs) because
hypothesis's own cost per example dominates the run time.
"""

from __future__ import annotations

import base64
import json
import string

from hypothesis import given
from hypothesis import strategies as st
from strategies import assert_clear_refusal, fuzz
from test_documents_fuzz import json_from_bytes

from engine import InputError, links
from engine.links import Status, verify

B64 = string.ascii_letters + string.digits + "-_"


def _refused_or_sound(text, reveal=None):
    """Decode and verify ``text``: either our error with a field and a message, or a verdict."""
    try:
        verdict = verify(text, reveal)
    except InputError as error:
        assert_clear_refusal(error)
        return None
    assert verdict.status in tuple(Status)
    if verdict.status is Status.ALTERED:
        assert verdict.mismatches
    return verdict


@fuzz(2000)
@given(st.text(max_size=400))
def test_random_text(text):
    _refused_or_sound(text)
    _refused_or_sound("https://dice.example/#r=" + text)


@fuzz(2500)
@given(st.binary(max_size=260))
def test_random_bytes_as_base64url(data):
    text = base64.urlsafe_b64encode(data).decode().rstrip("=")
    _refused_or_sound(text)


def _pool() -> list[str]:
    """Valid links of every kind and system, with plain, Cyrillic, Czech and hostile names."""
    from test_links import ALL_CHECKS

    names = ["", "Frodo", "Фродо Торбинс", "Šárka Nováková", "<img src=x onerror=alert(1)>"]
    out = []
    for i, check in enumerate(ALL_CHECKS[::2]):
        name = names[i % len(names)]
        secret = links.encode_secret_link(check, seed=i, name=name, session_code="S", number=i + 1)
        out += [
            links.encode_check_link(check, name=name, label="Label"),
            links.encode_roll_link(check, seed=2**63 + i, name=name),
            links.encode_roll_link(check, session_code="MORIA", number=i + 1, name=name),
            secret.link,
            secret.revealed_link,
        ]
    return out


POOL = _pool()
INSERTS = B64 + "=%#?&"


def _mutate(text: str, program: bytes) -> str:
    """Apply edits read from ``program``, three bytes each: operation, position, character."""
    for k in range(0, len(program) - 2, 3):
        op, position, char = (
            program[k] % 5,
            program[k + 1] + 256 * (program[k] & 1),
            INSERTS[program[k + 2] % len(INSERTS)],
        )
        i = position % (len(text) + 1)
        if op == 0:
            text = text[:i] + char + text[i + 1 :]
        elif op == 1:
            text = text[:i] + text[i + 1 :]
        elif op == 2:
            text = text[:i] + char + text[i:]
        elif op == 3:
            text = text[:i]
        else:
            text = text + text[i:]
    return text


@fuzz(3500)
@given(st.binary(min_size=4, max_size=13))
def test_mutated_valid_links(program):
    """A valid link from the pool with one to four edits (flip, delete, insert, cut, repeat)."""
    text = _mutate(POOL[program[0] % len(POOL)], program[1:])
    reveal = links._b64encode(program[:8].ljust(8, b"\0")) if program[0] & 0x80 else None
    verdict = _refused_or_sound(text, reveal)
    if verdict is not None and verdict.status is not Status.ALTERED:
        # a mutation that still verifies must be a link in its own right (e.g. several flips that cancel out)
        assert links.encode_link(verdict.link) == verdict.link.payload


@fuzz(2000)
@given(st.binary(min_size=2, max_size=120))
def test_framed_random_bodies(data):
    """Random bodies behind a plausible header, with a correct digest, so the parser goes deep."""
    kind, system, tail = data[0] % 5, data[1] % 6, data[2:]
    body = bytes([1, kind, system]) + tail
    _refused_or_sound(links._b64encode(body + links._digest(body)))
    # small bytes make plausible field values (flags, lengths, counts)
    body = bytes([1, kind, system]) + bytes(b % 4 for b in tail[:12]) + tail[12:]
    _refused_or_sound(links._b64encode(body + links._digest(body)))


@fuzz(1000)
@given(st.binary(max_size=64))
def test_json_texts(data):
    value = json_from_bytes(data)
    text = json.dumps(value)
    _refused_or_sound(text)
    _refused_or_sound(base64.urlsafe_b64encode(text.encode()).decode().rstrip("="))
    try:
        links.find_gaps(value if isinstance(value, list) else [value])
    except InputError as error:
        assert error.message and error.field
