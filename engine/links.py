"""Share links: a roll, a prepared check or a secret roll in a short URL-safe text.

A link payload is the base64url text (no padding) of a small binary record,
format ``kostka-link-v1``. It goes in a URL fragment or query as
``#r=<payload>`` (:data:`LINK_KEY`); :func:`decode_link` accepts the bare
payload, ``r=<payload>`` or a whole address.

Why binary and not JSON: a GURPS check carries up to 20 modifiers, a name may
be Cyrillic (two UTF-8 bytes a letter) and the link must still fit in a QR
code a phone reads across the table. Varints, nibble-packed dice and one byte
per choice keep every link of every kind within :data:`MAX_PAYLOAD_LENGTH`
(300) characters, so that with a site address of up to 100 characters the
whole link fits a QR code of version 15 at error correction M (412 bytes).
Names and labels longer than the limits are shortened with "…" by the
encoders (:func:`link_text`); session codes are not. Decoding is strict:
every byte is accounted for, anything left over, missing, out of range or not
in canonical form is refused with an :class:`InputError` (``field`` starting
with ``"link"``).

Layout (``uv`` = unsigned LEB128 varint, ``sv`` = zigzag varint, ``str`` =
``uv`` byte length + UTF-8)::

    uv version (2, 3 for free dice, 4 for session rolls; 1 is still read) · byte kind · byte system · check fields · str name · str label
    kind roll:      byte source (0 seed | 1 session) · (8-byte seed | str code · uv number) · claim
    kind secret:    byte session (0 | 1) · [str code · uv number] · 16-byte commitment
    kind revealed:  byte session (0 | 1) · [str code · uv number] · 8-byte seed · claim
    kind check:     nothing more
    claim = uv dice count · faces packed two per byte (high nibble first, pad 0) · byte outcome · uv rounds
    6-byte digest = SHA-256(b"kostka-link-v1\\0" + everything before it)[:6]

Check fields, in order, per system (:data:`CHECK_FIELDS`): ints as ``sv``,
booleans and choices as one byte, a list of ints as ``uv`` count + ``sv``
each, an optional int as ``uv`` 0 (none) or ``sv + 1``. A free dice roll
(system ``dice``, kind roll only, version 3) carries its expression as terms
and a constant::

    uv terms · per term: uv count · uv sides · byte (1 if subtracted) + 2 × keep (0 all, 1 highest, 2 lowest)
               · [uv kept, when some are kept] · sv constant
    claim = sv total (the dice follow from the seed; a hundred of them would not fit a QR code)

Each number is checked against the roller's bounds as it is read, then the
expression is parsed as if typed (:func:`engine.roller.parse_dice`), so a link
holds nothing the free dice roller would refuse.

Versions: version 3 added the free dice (system number 5); a link is written
in the oldest version that carries it, so the systems' links stay version 2
(:data:`LINK_VERSION`, readable by every reader of version 2) and only free
dice links are version 3 (:data:`DICE_LINK_VERSION`), which a reader of
version 2 refuses by their version ("this app reads links of version 2 and
older") rather than as a damaged link. Version 2 added the Fate & Doom check's ``ties_succeed`` byte (the
table option; since version 2 a tie fails by default). A version-1 link has no
such byte and was rolled when a tie passed, so it is read with
``ties_succeed=True`` (:data:`LEGACY_FIELDS`): an old roll keeps its outcome,
its digest and its verdict. A decoded link keeps its ``version`` and is written
back in it.

Version 4 (:data:`SESSION_LINK_VERSION`) is version 3's layout for session
rolls whose seed binds what the roll uses rather than how it was written
(:func:`session_roll_seed`): the check's canonical form
(:func:`engine.canonical.canonical_form`) and the name's confusable skeleton
(:func:`engine.skeleton.skeleton`); the free dice of such a link are drawn in
their canonical order. Every session roll is now written in version 4; a
session link of versions 1 to 3 keeps the derivation it was made with (the
check's version-1 fields as written, the name as written), so it verifies as
it always did, and a roll kept in a log from then gets its old link back.

The *claim* is what the sharer saw: every die in the order drawn (the One
Ring: the feat dice as 0–11 with 0 the Eye and 11 the Gandalf rune, then the
success dice; a quick contest: A's 3d6 then B's; a regular contest: the dice
of its last round, with ``rounds`` the number of rounds) and the outcome
(:data:`OUTCOMES`).

Trust model
-----------

* **Random seed.** :func:`verify` recomputes the roll from the check and the
  seed and compares it with the claim, and recomputes the digest over every
  field. Editing any one field (a die, the outcome, the seed, an input, the
  name) is caught. The digest has no secret key, so someone who knows this
  format can rewrite a link and its digest together; a random-seed link proves
  only that the dice shown follow from the seed shown, not that the seed was
  not picked among many tries.
* **Session rolls.** The seed is :func:`session_roll_seed` of the game
  master's session code, the roll's running number, the check and the
  character's name (built on :func:`engine.rng.session_seed`). Nobody picks a
  seed: a roll at a given number with given inputs has exactly one result, and
  another try needs another number, which shows as a gap or a duplicate
  (:func:`find_gaps`, by session code and character). Since version 4 the
  check is bound by the numbers its roll uses, so writing it another way
  (GURPS modifiers that cancel out, ``1d6+1d6+3`` for ``2d6+3``) gives the
  same dice, and the name by its skeleton, so a name that only looks like
  another (``Gunnаr`` with a Cyrillic ``а``) gives that name's dice and counts
  in its numbering, where the report names the look-alike spelling. (Before,
  a player holding the code could choose among such spellings: 260 ways of
  writing one GURPS roll at one number gave 151 different throws.) Binding
  the name means two characters at the same number do not share dice; another
  name is another numbering, which shows. A check that rolls differently (a
  higher skill) is another roll, and shows in the link. What the code does
  *not* prevent: everyone holding it can work out any number's dice in
  advance, so a player could spend an unlucky number on a harmless roll (it
  stays in the log for the game master to see), and can write a valid link for
  a number never rolled in the app. Changing the code during a session limits
  the first; only a game master who watches the log catches either, until the
  live table's commit–reveal (planned) deals the dice from a seed nobody at
  the table knows in advance.
* **Secret rolls** are commit–reveal. The sealed link carries the inputs, the
  name and ``commitment = SHA-256(b"kostka-secret-v1\\0" + fields + seed)[:16]``
  of a fresh 64-bit random seed; it says nothing about the dice (finding the
  seed means about 2**63 SHA-256 evaluations). The reveal code
  (:func:`reveal_code`, 11 characters) or the revealed link opens it;
  :func:`verify` checks the seed against the commitment. A commitment fixes the
  result when the link is shared; it cannot show that the game master did not
  roll several times before sharing — secret rolls are the game master's own.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import unicodedata
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from .api import CHECKS, Check, roll_check
from .canonical import canonical_form
from .errors import InputError, check_int
from .rng import MAX_SEED, random_seed, session_seed
from .roller import MAX_CONSTANT, MAX_DICE, MAX_SIDES, MAX_TERMS, DiceExpression, parse_dice
from .skeleton import skeleton

__all__ = [
    "CHECK_FIELDS",
    "DICE_LINK_VERSION",
    "LINK_KEY",
    "LEGACY_FIELDS",
    "JOINERS",
    "LINK_VERSION",
    "MAX_CODE_BYTES",
    "MAX_CODE_LENGTH",
    "MAX_LABEL_BYTES",
    "MAX_LABEL_LENGTH",
    "MAX_LINK_TEXT",
    "MAX_NAME_BYTES",
    "MAX_NAME_LENGTH",
    "MAX_NUMBER",
    "MAX_PAYLOAD_LENGTH",
    "OUTCOMES",
    "READ_VERSIONS",
    "SESSION_LINK_VERSION",
    "Claim",
    "Kind",
    "Link",
    "SecretRoll",
    "SessionNumbers",
    "Status",
    "Verdict",
    "claim_of",
    "clean_text",
    "decode_link",
    "decode_reveal_code",
    "encode_check_link",
    "encode_link",
    "encode_roll_link",
    "encode_secret_link",
    "find_gaps",
    "link_text",
    "link_url",
    "name_key",
    "refused_character",
    "reveal_code",
    "reveal_link",
    "session_roll_seed",
    "verify",
    "without_refused",
]

#: The version links of the systems' checks are written in.
LINK_VERSION = 2
#: The version free dice links are written in: version 2's layout with the free dice as a system of
#: its own (readers of version 2 refuse them by their version, not as a damaged link).
DICE_LINK_VERSION = 3
#: The version session rolls are written in: version 3's layout, with the seed derived from the
#: check's canonical form and the name's skeleton (:func:`session_roll_seed`).
SESSION_LINK_VERSION = 4
#: The link versions this module reads.
READ_VERSIONS = (1, 2, 3, 4)
#: The URL parameter that carries a link payload (``#r=…`` or ``?r=…``).
LINK_KEY = "r"
#: The longest payload any link can have (worst-case inputs; tested).
MAX_PAYLOAD_LENGTH = 300
#: Texts longer than this are refused before any parsing.
MAX_LINK_TEXT = 4096
MAX_NAME_LENGTH = 40
MAX_NAME_BYTES = 80
MAX_LABEL_LENGTH = 24
MAX_LABEL_BYTES = 48
MAX_CODE_LENGTH = 16
MAX_CODE_BYTES = 32
MAX_NUMBER = 10**9

_DIGEST_BYTES = 6
_COMMITMENT_BYTES = 16
_MAX_DICE = 64
_MAX_LIST = 64
_DIGEST_DOMAIN = b"kostka-link-v1\0"
_SECRET_DOMAIN = b"kostka-secret-v1\0"
_ROLL_SEED_DOMAIN = b"kostka-roll-v1\0"
_CANONICAL_SEED_DOMAIN = b"kostka-roll-v2\0"


class Kind(StrEnum):
    CHECK = "check"
    ROLL = "roll"
    SECRET = "secret"
    REVEALED = "revealed"


_KIND_CODES = (Kind.CHECK, Kind.ROLL, Kind.SECRET, Kind.REVEALED)
_SYSTEMS = ("one-ring", "gurps", "gurps-quick", "gurps-regular", "fate", "dice")
#: What a link can carry: the systems' checks and a free dice expression.
_LINK_CHECKS: dict[str, type[Check | DiceExpression]] = {**CHECKS, DiceExpression.system: DiceExpression}

#: Per system, the check's fields in link order with their encoding:
#: ``"int"``, ``"bool"``, ``"ints"`` (a list), ``"optint"`` or a tuple of choices.
CHECK_FIELDS: dict[str, tuple[tuple[str, Any], ...]] = {
    "one-ring": (
        ("rating", "int"),
        ("tn", "int"),
        ("feat_mode", ("normal", "favoured", "ill_favoured")),
        ("bonus_dice", "int"),
        ("weary", "bool"),
        ("miserable", "bool"),
    ),
    "gurps": (("skill", "int"), ("modifiers", "ints"), ("defence", "bool")),
    "gurps-quick": (("a", "int"), ("b", "int")),
    "gurps-regular": (("a", "int"), ("b", "int"), ("high_skill_rule", "bool")),
    "fate": (
        ("skill", "int"),
        ("difficulty", "int"),
        ("favour_spent", "int"),
        ("favour_held", "optint"),
        ("ties_succeed", "bool"),
    ),
    # the expression's terms (count, sides, sign and keep) and its constant: see _write_dice
    "dice": (("expression", "dice"),),
}

#: Per version, the check fields it does not carry and the value they had then.
LEGACY_FIELDS: dict[int, dict[str, dict[str, Any]]] = {1: {"fate": {"ties_succeed": True}}}

#: Per system, the outcomes a claim can name (stored as an index).
OUTCOMES: dict[str, tuple[str, ...]] = {
    "one-ring": ("failure", "success", "great", "extraordinary"),
    "gurps": ("critical_success", "success", "failure", "critical_failure"),
    "gurps-quick": ("a", "b", "tie"),
    "gurps-regular": ("a", "b", "undecided"),
    "fate": ("success", "failure"),
    "dice": ("total",),  # a free dice claim is its total (see Claim)
}


# -- small helpers -----------------------------------------------------------------------------


def _fail(field: str, message: str, code: str = "format", **params: Any) -> InputError:
    return InputError(field, code, message, **params)


#: The format characters a name may hold: the zero-width joiner and non-joiner (emoji sequences
#: such as 👩‍🚀, and scripts that need them) and the tag characters of subdivision flags.
JOINERS = frozenset({"\u200c", "\u200d", *map(chr, range(0xE0020, 0xE0080))})


def refused_character(char: str) -> bool:
    """Whether ``char`` may not be in a name, label or code: control, format (bar :data:`JOINERS`),
    surrogate, private-use or unassigned characters. One rule for names everywhere: the form drops
    them as they are typed (:func:`without_refused`), links, files and storage refuse them."""
    return unicodedata.category(char).startswith("C") and char not in JOINERS


def without_refused(text: str) -> str:
    """``text`` without the characters :func:`refused_character` refuses (what a name field keeps)."""
    return "".join(c for c in text if not refused_character(c)) if any(map(refused_character, text)) else text


def clean_text(field: str, value: Any, max_length: int, max_bytes: int, *, required: bool = False) -> str:
    """``value`` as link text: NFC, stripped, no control or format characters (bar the joiners
    of :data:`JOINERS`), within the limits."""
    if not isinstance(value, str):
        raise InputError(
            field, "type", f"expected a text, got {type(value).__name__}", value=repr(value)[:40], kind="text"
        )
    text = unicodedata.normalize("NFC", value.strip())
    if required and not text:
        raise InputError(field, "type", "must not be empty", kind="text")
    for char in text:
        if refused_character(char):
            raise InputError(
                field,
                "type",
                f"contains a control character (U+{ord(char):04X})",
                value=f"U+{ord(char):04X}",
                kind="character",
            )
    if len(text) > max_length:
        raise InputError(
            field,
            "range",
            f"is at most {max_length} characters long, got {len(text)}",
            high=max_length,
            value=len(text),
        )
    size = len(text.encode("utf-8"))
    if size > max_bytes:
        raise InputError(
            field,
            "range",
            f"is at most {max_bytes} bytes long in UTF-8, got {size}",
            high=max_bytes,
            value=size,
            unit="bytes",
        )
    return text


def link_text(field: str, value: Any, max_length: int, max_bytes: int) -> str:
    """A name or label as a link carries it: cleaned like :func:`clean_text`, and shortened
    with "…" when longer than the limits (so a long name never stops a roll being shared).

    Session seeds are derived from this form of the name, so the app and the
    link agree whatever the length of the name on the sheet.
    """
    text = clean_text(field, value, 10**6, 10**7)
    if len(text) <= max_length and len(text.encode("utf-8")) <= max_bytes:
        return text
    cut = text[: max_length - 1]
    while len(cut.encode("utf-8")) > max_bytes - 3:
        cut = cut[:-1]
    return cut.rstrip() + "\u2026"


def _zigzag(n: int) -> int:
    return n * 2 if n >= 0 else -n * 2 - 1


def _unzigzag(n: int) -> int:
    return n // 2 if n % 2 == 0 else -(n + 1) // 2


class _Writer:
    def __init__(self) -> None:
        self.out = bytearray()

    def uv(self, n: int) -> None:
        if n < 0:
            raise ValueError(n)
        while True:
            byte = n & 0x7F
            n >>= 7
            if n:
                self.out.append(byte | 0x80)
            else:
                self.out.append(byte)
                return

    def sv(self, n: int) -> None:
        self.uv(_zigzag(n))

    def byte(self, n: int) -> None:
        self.out.append(n)

    def raw(self, data: bytes) -> None:
        self.out += data

    def text(self, value: str) -> None:
        data = value.encode("utf-8")
        self.uv(len(data))
        self.raw(data)


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def _need(self, count: int, field: str) -> None:
        if self.pos + count > len(self.data):
            raise _fail(field, "the link is cut short: it ends before this field")

    def byte(self, field: str) -> int:
        self._need(1, field)
        value = self.data[self.pos]
        self.pos += 1
        return value

    def uv(self, field: str) -> int:
        result = shift = 0
        for _ in range(10):
            byte = self.byte(field)
            result |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return result
            shift += 7
        raise _fail(field, "a number in the link is too long")

    def sv(self, field: str) -> int:
        return _unzigzag(self.uv(field))

    def raw(self, count: int, field: str) -> bytes:
        self._need(count, field)
        value = self.data[self.pos : self.pos + count]
        self.pos += count
        return value

    def text(self, field: str, max_length: int, max_bytes: int) -> str:
        size = self.uv(field)
        if size > max_bytes:
            raise _fail(
                field,
                f"is at most {max_bytes} bytes long in UTF-8, got {size}",
                code="range",
                high=max_bytes,
                value=size,
            )
        data = self.raw(size, field)
        try:
            raw = data.decode("utf-8")
        except UnicodeDecodeError:
            raise _fail(field, "is not valid UTF-8 text") from None
        value = clean_text(field, raw, max_length, max_bytes)
        if value != raw:
            raise _fail(field, "is not in canonical form (surrounding spaces or unnormalised Unicode)")
        return value


def _b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _b64decode(text: str, field: str) -> bytes:
    if not text:
        raise _fail(field, "is empty")
    if not all(c.isascii() and (c.isalnum() or c in "-_") for c in text):
        raise _fail(field, "contains characters that are not base64url (A–Z, a–z, 0–9, - and _)")
    if len(text) % 4 == 1:
        raise _fail(field, "is cut short (its length is not possible for base64url)")
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise _fail(field, "is not valid base64url") from None
    if _b64encode(data) != text:
        raise _fail(field, "is not in canonical base64url form")
    return data


# -- check and claim encoding ------------------------------------------------------------------


def _check_system(check: Any) -> str:
    system: str = getattr(type(check), "system", "")
    if system not in _LINK_CHECKS or not isinstance(check, _LINK_CHECKS[system]):
        raise InputError(
            "check", "type", f"not a check of a known system: {type(check).__name__}", allowed=list(_SYSTEMS)
        )
    return system


def _write_check(w: _Writer, system: str, check: Any, version: int = LINK_VERSION) -> None:
    """The system byte and the check fields that links of ``version`` carry."""
    w.byte(_SYSTEMS.index(system))
    if system == "dice":
        _write_dice(w, check)
        return
    values = check.to_dict()
    absent = LEGACY_FIELDS.get(version, {}).get(system, {})
    for name, spec in CHECK_FIELDS[system]:
        if name in absent:
            continue
        value = values[name]
        if spec == "int":
            w.sv(value)
        elif spec == "bool":
            w.byte(int(value))
        elif spec == "ints":
            w.uv(len(value))
            for item in value:
                w.sv(item)
        elif spec == "optint":
            w.uv(0 if value is None else _zigzag(value) + 1)
        else:
            w.byte(spec.index(value))


def _read_check(r: _Reader, version: int = LINK_VERSION) -> tuple[str, Any]:
    code = r.byte("link.system")
    if code >= len(_SYSTEMS):
        raise _fail("link.system", f"unknown system number {code}", code="choice", allowed=list(_SYSTEMS), value=code)
    system = _SYSTEMS[code]
    if system == "dice":
        if version < DICE_LINK_VERSION:
            raise _fail(
                "link.system",
                f"free dice links are version {DICE_LINK_VERSION}, this one is version {version}",
                code="choice",
                allowed=list(_SYSTEMS[:-1]),
                value=code,
            )
        return system, _read_dice(r)
    absent = LEGACY_FIELDS.get(version, {}).get(system, {})
    values: dict[str, Any] = dict(absent)
    for name, spec in CHECK_FIELDS[system]:
        if name in absent:
            continue
        path = f"link.check.{name}"
        if spec == "int":
            values[name] = r.sv(path)
        elif spec == "bool":
            flag = r.byte(path)
            if flag > 1:
                raise _fail(path, f"expected 0 or 1, got {flag}", code="type", value=flag)
            values[name] = bool(flag)
        elif spec == "ints":
            count = r.uv(path)
            if count > _MAX_LIST:
                raise _fail(path, f"at most {_MAX_LIST} items, got {count}", code="range", high=_MAX_LIST, value=count)
            values[name] = [r.sv(path) for _ in range(count)]
        elif spec == "optint":
            raw = r.uv(path)
            values[name] = None if raw == 0 else _unzigzag(raw - 1)
        else:
            index = r.byte(path)
            if index >= len(spec):
                raise _fail(path, f"unknown choice number {index}", code="choice", allowed=list(spec), value=index)
            values[name] = spec[index]
    try:
        check = CHECKS[system].from_dict(values)
    except InputError as error:
        raise InputError(f"link.check.{error.field}", error.code, error.message, **error.params) from None
    return system, check


_KEEP_MODES = (None, "highest", "lowest")


def _write_dice(w: _Writer, expression: DiceExpression) -> None:
    """``uv`` terms · per term ``uv`` count, ``uv`` sides, byte (sign − bit 0, keep mode × 2), [``uv`` kept] ·
    ``sv`` constant. Smaller than the text (a worst-case link still fits its QR code)."""
    w.uv(len(expression.terms))
    for term in expression.terms:
        mode = 0 if term.keep is None else (2 if term.lowest else 1)
        w.uv(term.count)
        w.uv(term.sides)
        w.byte((term.sign < 0) | mode << 1)
        if term.keep is not None:  # the kept count follows a keep mode
            w.uv(term.keep)
    w.sv(expression.constant)


def _dice_error(code: str, message: str, **params: Any) -> InputError:
    return InputError("link.check.dice", code, message, **params)


def _read_dice(r: _Reader) -> DiceExpression:
    """A dice expression from a link, within the roller's bounds: each number is checked as it is
    read (a count of 10**20 dice never becomes a number to work with), then the expression is
    parsed as if typed, so every bound of :func:`engine.roller.parse_dice` applies."""
    path = "link.check.dice"
    count = r.uv(path)
    if count > MAX_TERMS:
        raise _dice_error("range", f"at most {MAX_TERMS} kinds of dice in one roll", high=MAX_TERMS, what="terms")
    parts = []
    for _ in range(count):
        dice = r.uv(path)
        if dice > MAX_DICE:
            raise _dice_error("range", f"at most {MAX_DICE} dice in one roll", high=MAX_DICE, what="dice")
        sides = r.uv(path)
        if sides > MAX_SIDES:
            raise _dice_error("range", f"a die has at most {MAX_SIDES} sides", high=MAX_SIDES, what="sides")
        flags = r.byte(path)
        mode = flags >> 1
        if mode >= len(_KEEP_MODES):
            raise _fail(path, f"unknown flags {flags}", value=flags)
        text = f"{'-' if flags & 1 else '+'}{dice}d{sides}"
        if mode:
            kept = r.uv(path)
            if kept > MAX_DICE:
                raise _dice_error("range", f"can keep at most {MAX_DICE} dice", high=MAX_DICE, what="keep")
            text += f"{'kl' if mode == 2 else 'k'}{kept}"
        parts.append(text)
    constant = r.sv(path)
    if abs(constant) > MAX_CONSTANT:
        raise _dice_error(
            "range", f"the numbers add up to more than {MAX_CONSTANT}", high=MAX_CONSTANT, what="constant"
        )
    if constant or not parts:
        parts.append(f"{constant:+d}")
    try:
        return parse_dice("".join(parts))
    except InputError as error:
        raise InputError(path, error.code, error.message, **error.params) from None


def _roll(check: Any, seed: int, canonical: bool = False) -> Any:
    """The roll record of any check a link carries (free dice roll themselves; ``canonical``: in
    the order of their canonical form, as session rolls of version 4 are rolled)."""
    if isinstance(check, DiceExpression):
        return check.roll_canonical(seed) if canonical else check.roll(seed)
    return roll_check(check, seed)


def _rolled_canonically(link: Link) -> bool:
    """Whether ``link``'s dice were drawn for its check's canonical form: a session roll of version 4."""
    return link.kind is Kind.ROLL and link.session_code is not None and link.version >= SESSION_LINK_VERSION


@dataclass(frozen=True)
class Claim:
    """What a roll link says was rolled: the dice in the order drawn, the outcome, the rounds.

    A free dice claim is its ``total`` (``dice`` empty, ``outcome`` ``"total"``): up to 100 dice of up
    to 1,000 sides would not fit a QR code, and the dice follow from the seed anyway.
    """

    dice: tuple[int, ...]
    outcome: str
    rounds: int = 0
    total: int | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {"dice": list(self.dice), "outcome": self.outcome, "rounds": self.rounds}
        if self.total is not None:
            out["total"] = self.total
        return out


def claim_of(record: Any) -> Claim:
    """The claim of a roll record (see the module docstring for what it keeps)."""
    data = record.to_dict()
    system = data.get("system")
    if system == "one-ring":
        return Claim(tuple(data["feat_dice"]) + tuple(data["success_dice"]), data["degree"])
    if system == "gurps":
        return Claim(tuple(data["dice"]), data["outcome"])
    if system == "gurps-quick":
        return Claim(tuple(data["dice_a"]) + tuple(data["dice_b"]), data["winner"] or "tie")
    if system == "gurps-regular":
        last = data["rounds"][-1]
        return Claim(tuple(last["dice_a"]) + tuple(last["dice_b"]), data["winner"] or "undecided", len(data["rounds"]))
    if system == "fate":
        return Claim(tuple(data["dice"]), "success" if data["success"] else "failure")
    if system == "dice":
        return Claim((), "total", total=data["total"])
    raise InputError("record", "type", f"not a roll record of a known system: {type(record).__name__}")


def _write_claim(w: _Writer, system: str, claim: Claim) -> None:
    if system == "dice":
        w.sv(claim.total or 0)
        return
    w.uv(len(claim.dice))
    faces = list(claim.dice) + ([0] if len(claim.dice) % 2 else [])
    for high, low in zip(faces[::2], faces[1::2], strict=False):
        w.byte(high << 4 | low)
    w.byte(OUTCOMES[system].index(claim.outcome))
    w.uv(claim.rounds)


def _read_claim(r: _Reader, system: str) -> Claim:
    if system == "dice":
        return Claim((), "total", total=r.sv("link.claim.total"))
    count = r.uv("link.claim.dice")
    if count > _MAX_DICE:
        raise _fail(
            "link.claim.dice", f"at most {_MAX_DICE} dice, got {count}", code="range", high=_MAX_DICE, value=count
        )
    packed = r.raw((count + 1) // 2, "link.claim.dice")
    faces: list[int] = []
    for byte in packed:
        faces += (byte >> 4, byte & 0x0F)
    if count % 2 and faces[-1] != 0:
        raise _fail("link.claim.dice", "is not in canonical form")
    dice = tuple(faces[:count])
    index = r.byte("link.claim.outcome")
    allowed = OUTCOMES[system]
    if index >= len(allowed):
        raise _fail(
            "link.claim.outcome", f"unknown outcome number {index}", code="choice", allowed=list(allowed), value=index
        )
    rounds = r.uv("link.claim.rounds")
    return Claim(dice, allowed[index], rounds)


def _validate_claim(system: str, claim: Claim) -> None:
    """Refuse claims that cannot be written (encoders only; decoding is bounded by the format)."""
    if not isinstance(claim, Claim):
        raise InputError("claim", "type", "expected a Claim")
    if len(claim.dice) > _MAX_DICE or any(not isinstance(d, int) or not 0 <= d <= 15 for d in claim.dice):
        raise InputError("claim.dice", "range", "dice faces are 0 to 15, at most 64 of them", low=0, high=15)
    if claim.outcome not in OUTCOMES[system]:
        raise InputError(
            "claim.outcome", "choice", f"must be one of {', '.join(OUTCOMES[system])}", allowed=list(OUTCOMES[system])
        )
    check_int("claim.rounds", claim.rounds, 0, MAX_NUMBER)


# -- links ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Link:
    """A decoded link (any kind). ``seed`` is the seed the dice come from (``None`` when unknown).

    For a session roll ``seed`` is derived (:func:`session_roll_seed`); for a
    sealed secret it is ``None``; ``commitment`` is set for secret and revealed
    links (computed for the latter).
    """

    kind: Kind
    system: str
    check: Any
    name: str = ""
    label: str = ""
    session_code: str | None = None
    number: int | None = None
    seed: int | None = None
    claim: Claim | None = None
    commitment: bytes | None = None
    digest: bytes = b""
    payload: str = ""
    #: The format version the link is written in (a decoded link keeps the one it was made in).
    version: int = LINK_VERSION

    @property
    def secret(self) -> bool:
        """Whether this is a secret roll (sealed or revealed)."""
        return self.kind in (Kind.SECRET, Kind.REVEALED)

    @property
    def source(self) -> str | None:
        """``"session"`` or ``"seed"`` for rolls, ``None`` for the other kinds."""
        if self.kind is not Kind.ROLL:
            return None
        return "session" if self.session_code is not None else "seed"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": str(self.kind),
            "system": self.system,
            "check": self.check.to_dict(),
            "name": self.name,
            "label": self.label,
            "session_code": self.session_code,
            "number": self.number,
            "seed": self.seed,
            "claim": None if self.claim is None else self.claim.to_dict(),
            "commitment": None if self.commitment is None else self.commitment.hex(),
            "secret": self.secret,
            "version": self.version,
        }


def _session_fields(session_code: Any, number: Any) -> tuple[str | None, int | None]:
    if session_code is None and number is None:
        return None, None
    if session_code is None or number is None:
        raise InputError(
            "session_code" if session_code is None else "number",
            "type",
            "a session roll needs both the session code and the running number",
        )
    code = clean_text("session_code", session_code, MAX_CODE_LENGTH, MAX_CODE_BYTES, required=True)
    return code, check_int("number", number, 1, MAX_NUMBER)


def _body(link: Link) -> bytes:
    """Everything before the digest."""
    w = _Writer()
    w.uv(link.version)
    w.byte(_KIND_CODES.index(link.kind))
    values = link.check.to_dict()
    for name, value in LEGACY_FIELDS.get(link.version, {}).get(link.system, {}).items():
        if values[name] != value:
            raise InputError(
                f"check.{name}",
                "rule",
                f"a link of version {link.version} cannot carry {name}={values[name]}",
                value=values[name],
            )
    _write_check(w, link.system, link.check, link.version)
    w.text(link.name)
    w.text(link.label)
    if link.kind is Kind.ROLL:
        if link.session_code is not None:
            w.byte(1)
            w.text(link.session_code)
            w.uv(link.number or 0)
        else:
            w.byte(0)
            w.raw((link.seed or 0).to_bytes(8, "big"))
        # a roll link always carries its claim (Link's fields are optional for the other kinds)
        _write_claim(w, link.system, link.claim)  # type: ignore[arg-type]
    elif link.kind in (Kind.SECRET, Kind.REVEALED):
        if link.session_code is not None:
            w.byte(1)
            w.text(link.session_code)
            w.uv(link.number or 0)
        else:
            w.byte(0)
        if link.kind is Kind.SECRET:
            w.raw(link.commitment or b"")
        else:
            w.raw((link.seed or 0).to_bytes(8, "big"))
            # a revealed secret roll always carries its claim
            _write_claim(w, link.system, link.claim)  # type: ignore[arg-type]
    return bytes(w.out)


def _digest(body: bytes) -> bytes:
    return hashlib.sha256(_DIGEST_DOMAIN + body).digest()[:_DIGEST_BYTES]


def _commitment(link: Link, seed: int) -> bytes:
    """The commitment of a secret roll: fields of the sealed link (no commitment, no digest) + seed."""
    sealed = replace(link, kind=Kind.SECRET, seed=None, claim=None, commitment=b"")
    return hashlib.sha256(_SECRET_DOMAIN + _body(sealed) + seed.to_bytes(8, "big")).digest()[:_COMMITMENT_BYTES]


def encode_link(link: Link, *, digest: bytes | None = None) -> str:
    """The payload of ``link``; its digest is recomputed unless ``digest`` is given (to make test forgeries)."""
    body = _body(link)
    return _b64encode(body + (_digest(body) if digest is None else digest))


def _finish(link: Link) -> str:
    payload = encode_link(link)
    if len(payload) > MAX_PAYLOAD_LENGTH:  # cannot happen within the documented limits
        raise InputError(
            "link",
            "range",
            f"the link would be {len(payload)} characters long; at most {MAX_PAYLOAD_LENGTH}",
            high=MAX_PAYLOAD_LENGTH,
        )
    return payload


def _rolled_system(check: Any) -> str:
    """The system of a check that prepared-check and secret links carry (free dice are shared as rolls only)."""
    system = _check_system(check)
    if system == "dice":
        raise InputError("check", "choice", "free dice are shared as rolls only", allowed=list(_SYSTEMS[:-1]))
    return system


def session_roll_seed(
    session_code: str, number: int, check: Any, name: str = "", *, version: int = SESSION_LINK_VERSION
) -> int:
    """The seed of a session roll: the session's seed for ``number`` bound to the check and the name.

    For links of version 4 (:data:`SESSION_LINK_VERSION`, what the app rolls with now)::

        int.from_bytes(SHA-256(b"kostka-roll-v2\\0" + session_seed(code, number) as 8 bytes
            + system byte + uv length + sv each number of canonical_form(check)
            + str skeleton(name))[:8], "big")

    :func:`engine.canonical.canonical_form` is the numbers the roll uses, so every way of writing
    one roll (GURPS modifiers that add up alike, ``1d6+1d6+3`` for ``2d6+3``) has one seed at a
    number; :func:`engine.skeleton.skeleton` makes a name that only looks like another (``Gunnаr``
    with a Cyrillic ``а``) bind as that one. Free dice of such a link are drawn in their canonical
    order (:meth:`engine.roller.DiceExpression.roll_canonical`), so the total is one too.

    For versions 1 to 3, the derivation those links were made with::

        int.from_bytes(SHA-256(b"kostka-roll-v1\\0" + session_seed(code, number) as 8 bytes
            + system byte and check fields as a version-1 link writes them + str name)[:8], "big")
    """
    code, count = _session_fields(session_code, number)
    if code is None or count is None:  # neither given: refused as session_seed refuses a missing code
        raise InputError("session_code", "type", "the session code must be a non-empty text", value=session_code)
    if version not in READ_VERSIONS:
        raise InputError("version", "choice", f"no link version {version}", allowed=list(READ_VERSIONS), value=version)
    system = _check_system(check)
    name = link_text("name", name, MAX_NAME_LENGTH, MAX_NAME_BYTES)
    w = _Writer()
    w.raw(session_seed(code, count).to_bytes(8, "big"))
    if version < SESSION_LINK_VERSION:
        _write_check(w, system, check, 1)  # the version-1 fields: a table option did not change the dice
        w.text(name)
        domain = _ROLL_SEED_DOMAIN
    else:
        w.byte(_SYSTEMS.index(system))
        form = canonical_form(check)
        w.uv(len(form))
        for value in form:
            w.sv(value)
        w.text(skeleton(name))
        domain = _CANONICAL_SEED_DOMAIN
    return int.from_bytes(hashlib.sha256(domain + bytes(w.out)).digest()[:8], "big")


def _written_version(system: str) -> int:
    """The version a roll link without a session is written in (the oldest that carries it)."""
    return DICE_LINK_VERSION if system == "dice" else LINK_VERSION


def encode_check_link(check: Any, *, name: str = "", label: str = "") -> str:
    """A prepared check: the inputs (and optionally whose check and what it is), no seed, no result."""
    system = _rolled_system(check)
    return _finish(
        Link(
            Kind.CHECK,
            system,
            check,
            name=link_text("name", name, MAX_NAME_LENGTH, MAX_NAME_BYTES),
            label=link_text("label", label, MAX_LABEL_LENGTH, MAX_LABEL_BYTES),
        )
    )


def encode_roll_link(
    check: Any,
    *,
    seed: int | None = None,
    session_code: str | None = None,
    number: int | None = None,
    name: str = "",
    label: str = "",
) -> str:
    """The link of a roll: from an explicit ``seed``, or from ``session_code`` and ``number``.

    The roll is recomputed here, so the claim is always what the engine rolls.
    With a session, ``seed`` may be given too but must equal
    :func:`session_roll_seed` (the seed the app rolled with); a session roll is written in
    :data:`SESSION_LINK_VERSION`, or in the version before it when ``seed`` is that version's
    derivation (a roll made before it, kept in a log, keeps its link).
    """
    system = _check_system(check)
    name = link_text("name", name, MAX_NAME_LENGTH, MAX_NAME_BYTES)
    label = link_text("label", label, MAX_LABEL_LENGTH, MAX_LABEL_BYTES)
    code, number = _session_fields(session_code, number)
    version = _written_version(system)
    if code is not None and number is not None:  # _session_fields gives both or neither
        version = SESSION_LINK_VERSION
        derived = session_roll_seed(code, number, check, name)
        if seed is not None and check_int("seed", seed, 0, MAX_SEED) != derived:
            version = _written_version(system)
            if seed != session_roll_seed(code, number, check, name, version=version):
                raise InputError(
                    "seed", "rule", "this seed is not the session's seed for this number, check and name", value=seed
                )
            derived = seed
        seed = derived
    elif seed is None:
        raise InputError("seed", "type", "a roll link needs a seed, or a session code and a running number")
    seed = check_int("seed", seed, 0, MAX_SEED)
    link = Link(Kind.ROLL, system, check, name, label, code, number, seed, version=version)
    return _finish(replace(link, claim=claim_of(_roll(check, seed, _rolled_canonically(link)))))


@dataclass(frozen=True)
class SecretRoll:
    """A sealed secret roll: ``link`` to share now, ``reveal`` (the code) to give out later."""

    link: str
    reveal: str
    seed: int
    revealed_link: str


def encode_secret_link(
    check: Any,
    *,
    seed: int | None = None,
    session_code: str | None = None,
    number: int | None = None,
    name: str = "",
    label: str = "",
) -> SecretRoll:
    """Seal a secret roll. The seed is fresh and random unless given; a session code and number
    only place the roll in the session's numbering (the seed does not come from them, or
    everyone holding the code could open it)."""
    system = _rolled_system(check)
    name = link_text("name", name, MAX_NAME_LENGTH, MAX_NAME_BYTES)
    label = link_text("label", label, MAX_LABEL_LENGTH, MAX_LABEL_BYTES)
    code, number = _session_fields(session_code, number)
    seed = random_seed() if seed is None else check_int("seed", seed, 0, MAX_SEED)
    record = roll_check(check, seed)  # refuses a forbidden roll now, not at reveal time
    sealed = Link(Kind.SECRET, system, check, name, label, code, number)
    sealed = replace(sealed, commitment=_commitment(sealed, seed))
    opened = replace(sealed, kind=Kind.REVEALED, seed=seed, claim=claim_of(record), commitment=None)
    return SecretRoll(link=_finish(sealed), reveal=reveal_code(seed), seed=seed, revealed_link=_finish(opened))


def reveal_code(seed: int) -> str:
    """The 11-character code that opens a secret roll made with ``seed``."""
    return _b64encode(check_int("seed", seed, 0, MAX_SEED).to_bytes(8, "big"))


def decode_reveal_code(text: Any) -> int:
    """The seed in a reveal code (refuses anything else with :class:`InputError`)."""
    if not isinstance(text, str):
        raise InputError("reveal", "type", "expected the reveal code as text")
    data = _b64decode(text.strip(), "reveal")
    if len(data) != 8:
        raise _fail("reveal", "a reveal code has 11 characters")
    return int.from_bytes(data, "big")


def reveal_link(secret: str | Link, reveal: str | int) -> str:
    """The revealed link of a sealed secret roll, given its reveal code (or seed)."""
    sealed = secret if isinstance(secret, Link) else decode_link(secret)
    if sealed.kind is not Kind.SECRET:
        raise InputError(
            "link.kind", "choice", "not a sealed secret roll", allowed=[str(Kind.SECRET)], value=str(sealed.kind)
        )
    seed = _reveal_seed(reveal)
    if _commitment(sealed, seed) != sealed.commitment:
        raise InputError("reveal", "rule", "this reveal code does not open this secret roll")
    record = _roll(sealed.check, seed)
    return _finish(replace(sealed, kind=Kind.REVEALED, seed=seed, claim=claim_of(record), commitment=None))


def _reveal_seed(reveal: Any) -> int:
    if isinstance(reveal, int) and not isinstance(reveal, bool):
        return check_int("reveal", reveal, 0, MAX_SEED)
    return decode_reveal_code(reveal)


def link_url(base: str, payload: str) -> str:
    """``base`` (the app's address, any fragment dropped) + ``#r=`` + ``payload``."""
    if not isinstance(base, str) or not isinstance(payload, str):
        raise InputError("link", "type", "expected the address and the payload as text")
    return f"{base.split('#', 1)[0]}#{LINK_KEY}={payload}"


def _extract_payload(text: str) -> str:
    text = text.strip()
    if "#" in text or "?" in text or "=" in text:
        parts = urllib.parse.urlsplit(text if ("#" in text or "?" in text) else "#" + text)
        for part in (parts.fragment, parts.query):
            values = urllib.parse.parse_qs(part, keep_blank_values=True, max_num_fields=20).get(LINK_KEY)
            if values:
                if len(values) > 1:
                    raise _fail("link", f"the address holds more than one {LINK_KEY}= parameter")
                return values[0]
        raise _fail("link", f"the address holds no {LINK_KEY}= parameter")
    return text


def decode_link(text: Any) -> Link:
    """Decode a link (bare payload, ``r=…`` or a whole address) strictly; see the module docstring."""
    if isinstance(text, Link):
        return text
    if not isinstance(text, str):
        raise InputError("link", "type", f"expected the link as text, got {type(text).__name__}")
    if len(text) > MAX_LINK_TEXT:
        raise _fail(
            "link",
            f"is too long: {len(text)} characters, at most {MAX_LINK_TEXT}",
            code="range",
            high=MAX_LINK_TEXT,
            value=len(text),
        )
    try:
        payload = _extract_payload(text)
    except ValueError as error:  # urllib's own complaints (e.g. too many fields)
        if isinstance(error, InputError):
            raise
        raise _fail("link", "is not a readable address") from None
    if len(payload) > MAX_PAYLOAD_LENGTH:
        raise _fail(
            "link",
            f"the payload is too long: {len(payload)} characters, at most {MAX_PAYLOAD_LENGTH}",
            code="range",
            high=MAX_PAYLOAD_LENGTH,
            value=len(payload),
        )
    data = _b64decode(payload, "link")
    if len(data) < _DIGEST_BYTES + 3:
        raise _fail("link", "the link is cut short")
    r = _Reader(data[:-_DIGEST_BYTES])
    version = r.uv("link.version")
    if version not in READ_VERSIONS:
        raise _fail(
            "link.version",
            f"this app reads links of version {max(READ_VERSIONS)} and older, this one is version {version}",
            code="choice",
            allowed=list(READ_VERSIONS),
            value=version,
        )
    kind_code = r.byte("link.kind")
    if kind_code >= len(_KIND_CODES):
        raise _fail(
            "link.kind",
            f"unknown kind number {kind_code}",
            code="choice",
            allowed=[str(k) for k in _KIND_CODES],
            value=kind_code,
        )
    kind = _KIND_CODES[kind_code]
    system, check = _read_check(r, version)
    if system == "dice" and kind is not Kind.ROLL:
        raise _fail(
            "link.kind", "free dice are shared as rolls only", code="choice", allowed=[str(Kind.ROLL)], value=str(kind)
        )
    name = r.text("link.name", MAX_NAME_LENGTH, MAX_NAME_BYTES)
    label = r.text("link.label", MAX_LABEL_LENGTH, MAX_LABEL_BYTES)
    link = Link(kind, system, check, name, label, version=version)
    if kind is not Kind.CHECK:
        has_session = r.byte("link.session")
        if has_session > 1:
            raise _fail("link.session", f"expected 0 or 1, got {has_session}", code="type", value=has_session)
        if has_session:
            code = r.text("link.session_code", MAX_CODE_LENGTH, MAX_CODE_BYTES)
            if not code:
                raise _fail("link.session_code", "must not be empty", code="type")
            number = r.uv("link.number")
            if not 1 <= number <= MAX_NUMBER:
                raise _fail(
                    "link.number",
                    f"must be from 1 to {MAX_NUMBER}, got {number}",
                    code="range",
                    low=1,
                    high=MAX_NUMBER,
                    value=number,
                )
            link = replace(link, session_code=code, number=number)
        if kind is Kind.ROLL:
            if has_session:
                seed = session_roll_seed(code, number, check, name, version=version)  # read just above
            else:
                seed = int.from_bytes(r.raw(8, "link.seed"), "big")
            link = replace(link, seed=seed, claim=_read_claim(r, system))
        elif kind is Kind.SECRET:
            link = replace(link, commitment=r.raw(_COMMITMENT_BYTES, "link.commitment"))
        else:
            seed = int.from_bytes(r.raw(8, "link.seed"), "big")
            link = replace(link, seed=seed, claim=_read_claim(r, system))
            link = replace(link, commitment=_commitment(link, seed))
    if r.pos != len(r.data):
        raise _fail("link", f"{len(r.data) - r.pos} unexpected byte(s) after the last field")
    if _body(link) != r.data:  # e.g. an over-long varint: another spelling of the same link
        raise _fail("link", "is not in canonical form")
    return replace(link, digest=data[-_DIGEST_BYTES:], payload=payload)


# -- verification ---------------------------------------------------------------------------------


class Status(StrEnum):
    VERIFIED = "verified"  # this roll follows from this link (or: the link is intact)
    ALTERED = "altered"  # something in the link does not match
    SEALED = "sealed"  # an intact secret roll that has not been revealed


@dataclass(frozen=True)
class Verdict:
    """The result of :func:`verify`: ``status``, what did not match, and the recomputed roll."""

    status: Status
    link: Link
    mismatches: tuple[str, ...] = ()
    roll: Any = None
    expected: Claim | None = field(default=None)

    @property
    def verified(self) -> bool:
        return self.status is Status.VERIFIED

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": str(self.status),
            "mismatches": list(self.mismatches),
            "link": self.link.to_dict(),
            "roll": None if self.roll is None else self.roll.to_dict(),
        }


def _compare_claim(claimed: Claim, actual: Claim) -> list[str]:
    out = []
    if claimed.dice != actual.dice:
        out.append("claim.dice")
    if claimed.outcome != actual.outcome:
        out.append("claim.outcome")
    if claimed.rounds != actual.rounds:
        out.append("claim.rounds")
    if claimed.total != actual.total:
        out.append("claim.total")
    return out


def verify(link: str | Link, reveal: str | int | Link | None = None) -> Verdict:
    """Recompute what ``link`` shows and say whether it follows from the link.

    - roll / revealed secret: VERIFIED when the digest and every claimed die and
      outcome match the engine's roll from the link's inputs and seed;
    - prepared check: VERIFIED when the digest matches (there is no roll);
    - sealed secret: SEALED when intact; with ``reveal`` (a reveal code, the
      seed, or the revealed link) VERIFIED when it opens the commitment.

    Otherwise ALTERED, with ``mismatches`` naming what differs (``"digest"``,
    ``"claim.dice"``, ``"claim.outcome"``, ``"claim.rounds"``, ``"reveal"``).
    Undecodable text raises :class:`InputError`.
    """
    link = decode_link(link)
    mismatches: list[str] = []
    if _digest(_body(link)) != link.digest:
        mismatches.append("digest")
    roll = None
    expected = None
    if link.kind in (Kind.ROLL, Kind.REVEALED):
        # a decoded roll or revealed link always has its seed and claim (Link's fields are optional for the others)
        roll = _roll(link.check, link.seed, _rolled_canonically(link))  # type: ignore[arg-type]
        expected = claim_of(roll)
        mismatches += _compare_claim(link.claim, expected)  # type: ignore[arg-type]
    elif link.kind is Kind.SECRET:
        if reveal is None:
            return Verdict(Status.ALTERED if mismatches else Status.SEALED, link, tuple(mismatches))
        if isinstance(reveal, Link) or (isinstance(reveal, str) and len(reveal.strip()) > 11):
            opened = decode_link(reveal)
            inner = verify(opened)
            if opened.kind is not Kind.REVEALED or opened.commitment != link.commitment:
                mismatches.append("reveal")
            mismatches += [m for m in inner.mismatches if m not in mismatches]
            seed = opened.seed or 0
        else:
            seed = _reveal_seed(reveal)
            if _commitment(link, seed) != link.commitment:
                mismatches.append("reveal")
        if "reveal" not in mismatches:
            roll = _roll(link.check, seed)
            expected = claim_of(roll)
    status = Status.ALTERED if mismatches else Status.VERIFIED
    return Verdict(status, link, tuple(mismatches), roll, expected)


# -- gaps in a session's numbering ----------------------------------------------------------------


@dataclass(frozen=True)
class SessionNumbers:
    """The running numbers seen for one session code and one character name, counted by its skeleton.

    ``name`` is the spelling seen most often (the first of them on a tie); ``look_alikes`` are the
    other spellings with the same skeleton (``Gunnаr`` with a Cyrillic ``а`` beside ``Gunnar``):
    they count as the same character, and a game master should hear of them, since they look the
    same on the screen.
    """

    session_code: str
    name: str
    numbers: tuple[int, ...]
    missing: tuple[int, ...]
    duplicates: tuple[int, ...]
    look_alikes: tuple[str, ...] = ()

    @property
    def complete(self) -> bool:
        return not self.missing and not self.duplicates and not self.look_alikes

    def to_dict(self) -> dict[str, Any]:
        return {
            "session_code": self.session_code,
            "name": self.name,
            "numbers": list(self.numbers),
            "missing": list(self.missing),
            "duplicates": list(self.duplicates),
            "look_alikes": list(self.look_alikes),
        }


def name_key(name: str) -> str:
    """What a character's numbering is kept under: the skeleton of the name as a link carries it."""
    return skeleton(link_text("name", name, MAX_NAME_LENGTH, MAX_NAME_BYTES))


def find_gaps(links: Iterable[str | Link]) -> list[SessionNumbers]:
    """Group session links by session code and name skeleton, and list missing and repeated numbers.

    Numbering starts at 1. The same link given twice counts once; two different
    links with one number are a duplicate (a roll made again). Names count by
    their skeleton (:func:`name_key`): a name that only looks like another is the
    same character, so it neither starts a numbering of its own nor hides a roll
    made again, and its spelling is listed in ``look_alikes``. Links without a
    session and prepared checks are ignored. An unreadable link raises
    :class:`InputError` with ``field="links[i]…"``.
    """
    if isinstance(links, (str, bytes)) or not isinstance(links, Iterable):
        raise InputError("links", "type", "expected a list of links")
    groups: dict[tuple[str, str], dict[int, set[bytes]]] = {}
    spellings: dict[tuple[str, str], dict[str, int]] = {}
    for index, item in enumerate(links):
        try:
            link = decode_link(item)
        except InputError as error:
            raise InputError(f"links[{index}].{error.field}", error.code, error.message, **error.params) from None
        if link.session_code is None or link.number is None:
            continue
        key = (link.session_code, name_key(link.name))
        seen = groups.setdefault(key, {})
        names = spellings.setdefault(key, {})
        names[link.name] = names.get(link.name, 0) + 1
        identity = _body(replace(link, kind=Kind.SECRET, seed=None, claim=None, commitment=link.commitment or b""))
        seen.setdefault(link.number, set()).add(identity)
    out = []
    for key, numbers in sorted(groups.items()):
        counts = spellings[key]
        name = max(counts, key=counts.__getitem__)  # the first of the most seen: max keeps the first
        top = max(numbers)
        out.append(
            SessionNumbers(
                session_code=key[0],
                name=name,
                numbers=tuple(sorted(numbers)),
                missing=tuple(n for n in range(1, top + 1) if n not in numbers),
                duplicates=tuple(sorted(n for n, ids in numbers.items() if len(ids) > 1)),
                look_alikes=tuple(n for n in counts if n != name),
            )
        )
    return out
