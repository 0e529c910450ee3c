"""Fuzzing what reaches the app from outside, through the app's own state layer (what the browser
runs, without a browser): over ten thousand generated inputs per run.

3,000 addresses + 2,500 stored values + 2,500 link payloads + 2,500 imported files = 10,500.
For each: no exception escapes, nothing stored is lost (a stored character is still there, or
what could not be read was copied aside whole), and every refusal has a message in words.
Inputs are built from raw bytes (cheap for hypothesis) into the shapes that broke the app:
digits by the thousand, brackets by the thousand, %-escapes of stray bytes, ``²``, JSON rows.
"""

from __future__ import annotations

import json
from urllib.parse import quote

from hypothesis import example, given
from hypothesis import strategies as st
from strategies import fuzz

from engine import InputError, OneRingCheck, links
from engine.documents import parse_json
from webapp.i18n import Translator
from webapp.state.address import read_address
from webapp.state.app import AppState
from webapp.state.forms import as_form as _as_form
from webapp.state.links import export_characters, import_characters, open_link
from webapp.state.session import SessionState
from webapp.state.stored import BACKUP_PREFIX, read_stored
from webapp.words.messages import address_problem_text, document_error_text, storage_messages

TR = Translator()
KEYS = [
    "sys",
    "lang",
    "name",
    "skill",
    "favour",
    "life",
    "strength",
    "awe",
    "fav",
    "skills",
    "r_mods",
    "r_ability",
    "r_skill",
    "r_difficulty",
    "r_spend",
    "st",
    "x",
    "1e5",
    "²",
]
SYSTEMS = ["one-ring", "gurps", "fate", "", "True", "1e5"]
KEY_C, KEY_S, KEY_L = "kostka.characters", "kostka.session", "kostka.log"


def _sample_state() -> AppState:
    app = AppState()
    app.one_ring.character.param.update(name_text="Tilda", lore="4")
    app.gurps.character.param.update(
        name_text="Gunnar", skills=[{"name": "Guns", "level": "13"}, {"name": "a", "level": "zz"}]
    )
    app.fate.character.param.update(name_text="1e5", skill="8")
    app.roll("one-ring", seed=5)
    app.system = "fate"
    app.rolls.session.set_code("TABLE")
    app.roll(seed=None)
    return app


SAMPLE = _sample_state()
STORED = {KEY_C: SAMPLE.characters_json(), KEY_S: SAMPLE.rolls.session.to_json(), KEY_L: SAMPLE.rolls.log.to_storage()}
EXPORTED = export_characters(SAMPLE)


def _value(b: int, rest: bytes) -> str:
    """An address value of one of the kinds that broke the app, chosen and sized by the bytes."""
    size = (rest[0] if rest else 0) * 20
    kind = b % 10
    if kind == 0:
        return "9" * size  # up to 5100 digits
    if kind == 1:
        return "[" * size
    if kind == 2:
        return "".join(f"%{x:02X}" for x in rest[:12])  # stray bytes, often not UTF-8
    if kind == 3:
        return quote(json.dumps([{"name": rest[:4].decode("latin-1"), "level": "9" * (size // 10)}] * (1 + b % 12)))
    if kind == 4:
        return quote(rest[:30].decode("utf-8", "replace"))
    if kind == 5:
        return ["²", "1²", "1e5", "True", "NaN", "-0", "+3", "\u202e", "\U0001f469\u200d\U0001f680"][b % 9]
    if kind == 6:
        return quote("{" * (b % 5) + '"a":' + "[" * (b % 7))
    if kind == 7:
        return SYSTEMS[b % len(SYSTEMS)]
    if kind == 8:
        return str(b - 128)
    return rest[:8].hex()


def address_from(data: bytes) -> str:
    parts = []
    i = 0
    while i + 1 < len(data):
        key = KEYS[data[i] % len(KEYS)]
        parts.append(f"{quote(key)}={_value(data[i + 1], data[i + 2 : i + 6])}")
        i += 6
    return "?" + "&".join(parts)


def _held(app: AppState) -> dict[str, list[dict]]:
    return {name: [_as_form(type(r.form), c) for c in r.characters] for name, r in app.rosters.items()}


ADDRESS_STATE = AppState()


@fuzz(3000)
@given(st.binary(max_size=60))
def test_generated_addresses(data):
    app = ADDRESS_STATE
    if any(len(r.characters) > 30 for r in app.rosters.values()):
        app.load_characters(STORED[KEY_C])
    read = read_address(address_from(data))
    for problem in read.problems:
        assert isinstance(problem, InputError)
        assert address_problem_text(TR, problem).strip()
    before = _held(app)
    notes = app.apply_url(read.query, keep_stored=True)
    after = _held(app)
    for system, chars in before.items():
        blank = _as_form(type(app.rosters[system].form), {})
        kept = [c for c in chars if c != blank]
        assert all(c in after[system] for c in kept), "a stored character was overwritten by an address"
    assert all(TR(message, **params) for message, params in notes)


def _mutated(text: str, program: bytes) -> str:
    """``text`` edited by ``program``: each 3 bytes cut, double or insert at a place."""
    for k in range(0, len(program) - 2, 3):
        op, at, what = program[k] % 5, program[k + 1] * len(text) // 256, program[k + 2]
        if op == 0:
            text = text[:at] + text[at + 1 + what % 8 :]
        elif op == 1:
            text = text[:at] + '{}[]",:0123456789-eE\\u'[what % 22] + text[at:]
        elif op == 2:
            text = text[:at] + "[" * (what * 20) + text[at:]
        elif op == 3:
            text = text[:at] + "7" * (what * 2) + text[at:]
        else:
            text = text[:at] + chr(0x2000 + what) + text[at:]
    return text


def _trimmed(value: object) -> object:
    """``value`` with the spaces around its texts taken off (a stored skill's name "\u2000Guns" is
    read as "Guns")."""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, dict):
        return {k: _trimmed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_trimmed(v) for v in value]
    return value


def _as_read(form: object) -> object:
    """A stored character's form as reading it must give back: Weary that follows Endurance
    (``weary_auto``) is worked out from Endurance, Load and Fatigue, not read (a stored Endurance
    edited down to 0 makes the hero Weary)."""
    if isinstance(form, dict) and form.get("weary_auto") is True:
        return {k: v for k, v in form.items() if k != "weary"}
    return form


@fuzz(2500)
@given(st.binary(min_size=1, max_size=31))
@example(b"\x00\x00T\x00")  # the stored characters' Endurance 20 cut to 0: the hero reads Weary
def test_generated_storage_values(data):
    key = (KEY_C, KEY_S, KEY_L)[data[0] % 3]
    text = _mutated(STORED[key], data[1:])
    app, session = AppState(), SessionState()  # as a visit starts: each example on its own
    read = read_stored(app, session, {key: text}, "T", KEY_C, KEY_S, KEY_L)
    messages = storage_messages(read, KEY_C, KEY_S, KEY_L)
    assert len(messages) == len(read.kept) + len(read.partial)  # every item not read whole is said
    backups = [v for k, v in read.values.items() if k.startswith(BACKUP_PREFIX)]
    if key in read.kept or key in read.partial:
        assert backups == [text]  # kept aside whole, before anything is saved over it
        assert read.values[key] == ("" if key in read.kept else text)
    else:
        assert backups == [] and read.values[key] == text
        if key == KEY_C:  # read whole: every stored character is on a roster as it was stored
            stored = parse_json(text)
            for system, roster in stored.get("systems", {}).items():
                form = type(app.rosters[system].form)
                held = [_as_read(_trimmed(_as_form(form, c))) for c in app.rosters[system].characters]
                assert all(_as_read(_trimmed(_as_form(form, c))) in held for c in roster.get("characters", []))


def _pool() -> list[str]:
    check = OneRingCheck(rating=2, tn=14)
    return [
        links.encode_roll_link(check, seed=7, name="Tilda"),
        links.encode_roll_link(check, session_code="TABLE", number=3, name="\U0001f469\u200d\U0001f680"),
        links.encode_secret_link(check, seed=9, name="GM").link,
        links.encode_check_link(check, name="Фродо"),
    ]


LINKS = _pool()


@fuzz(2500)
@given(st.binary(min_size=1, max_size=31))
def test_generated_link_payloads(data):
    base = LINKS[data[0] % len(LINKS)]
    payload = _mutated(base, data[1:]) if data[0] & 0x80 else data[1:].decode("latin-1")
    for text in (payload, "http://127.0.0.1/?r=" + payload, "#r=" + quote(payload)):
        opened = open_link(text)  # never raises
        if opened.error is not None:
            assert opened.error.field.startswith(("link", "reveal")) and opened.error.message.strip()
        else:
            assert opened.status in ("verified", "altered", "sealed")


IMPORT_STATE = AppState()


@fuzz(2500)
@given(st.binary(min_size=1, max_size=31))
def test_generated_import_files(data):
    app = IMPORT_STATE
    if any(len(r.characters) > 30 for r in app.rosters.values()):
        app.load_characters(STORED[KEY_C])
    text = _mutated(EXPORTED if data[0] & 1 else STORED[KEY_C], data[1:])
    raw = text.encode("utf-8", "surrogatepass") if data[0] & 2 else text.encode("utf-8", "replace")
    before, held = app.characters_json(), _held(app)
    try:
        count = import_characters(app, raw)
    except InputError as error:
        assert app.characters_json() == before  # a refused file changes nothing
        try:
            parsed = parse_json(raw)
        except InputError:
            parsed = None
        words = document_error_text(TR, error, parsed)
        assert words.strip() and not words.startswith(("systems.", "rolls[", "monsters."))  # no bare path
        return
    assert count >= 0
    after = _held(app)
    for system, chars in held.items():
        blank = _as_form(type(app.rosters[system].form), {})
        assert all(c in after[system] for c in chars if c != blank), "an import overwrote a character"
