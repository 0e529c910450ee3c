"""Share links in the web app without a browser: roll -> link -> reopened roll, tampering, sessions,
secret rolls, and stored data that cannot be read."""

from __future__ import annotations

import json
from dataclasses import replace

import panel as pn
import pytest

import engine
from engine import InputError, links
from webapp.i18n import Translator
from webapp.state.app import AppState
from webapp.state.links import (
    ShareModel,
    entry_link,
    export_characters,
    export_log,
    import_characters,
    keep_aside,
    load_stored,
    numbering_json,
    open_link,
    read_numbering,
)
from webapp.state.session import SessionState, read_session
from webapp.state.stored import BACKUP_PREFIX
from webapp.views.shell import KEY_CHARACTERS, KEY_SESSION, KostkaApp
from webapp.words.log import log_rows

XSS = "<img src=x onerror=alert(1)>"


def one_ring(app: AppState, **kw) -> None:
    app.system = "one-ring"
    app.one_ring.character.name_text = kw.get("name", "Hanar")
    app.one_ring.character.awareness = "2"
    app.one_ring.ability = "awareness"


def gurps(app: AppState, **kw) -> None:
    app.system = "gurps"
    app.gurps.character.name_text = kw.get("name", "Ada")
    app.gurps.character.skills = [{"name": "Guns", "level": "13"}]
    app.gurps.modifiers = [{"name": "Rain", "value": "-2"}]


def fate(app: AppState, **kw) -> None:
    app.system = "fate"
    app.fate.character.name_text = kw.get("name", "Vlasta")
    app.fate.character.skill = "8"
    app.fate.favour_spend = "1"


def every_kind_of_roll(app: AppState):
    """(what, entry) for a roll of each system, both GURPS contests and a revealed secret roll."""
    for prepare in (one_ring, gurps, fate):
        prepare(app)
        yield prepare.__name__, app.roll()
    gurps(app)
    for kind in ("quick", "regular"):
        app.gurps.contest = kind
        yield f"contest-{kind}", app.roll_contest()
    fate(app)
    app.fate.secret = True
    entry = app.roll()
    app.rolls.log.reveal(entry.number)
    yield "secret", entry


@pytest.mark.parametrize("session", [None, "GM-ÚTERÝ"])
def test_every_kind_of_roll_reopens_identical_from_its_link(session):
    app = AppState()
    app.rolls.session.set_code(session)
    for what, entry in every_kind_of_roll(app):
        share = entry_link(entry)
        payload = share.revealed if share.kind == "secret" else share.link
        opened = open_link(links.link_url("https://example.org/kostka/", payload))
        # a revealed secret roll on its own only shows its dice follow from its seed
        assert opened.status == ("revealed" if what == "secret" else "verified"), what
        assert opened.roll == entry.roll, what
        assert opened.link.check == entry.check and opened.link.name == entry.character, what
        assert opened.link.seed == entry.seed, what
        if session and what != "secret":
            assert opened.link.source == "session" and opened.link.session_code == session
            assert entry.seed == links.session_roll_seed(session, entry.session_number, entry.check, entry.character)


def test_changing_any_one_field_of_a_roll_link_is_caught():
    app = AppState()
    fate(app)
    entry = app.roll()
    link = links.decode_link(entry_link(entry).link)
    other_outcome = "failure" if link.claim.outcome == "success" else "success"
    changes = {
        "name": replace(link, name="Someone else"),
        "label": replace(link, label="luck"),
        "seed": replace(link, seed=link.seed ^ 1),
        "check": replace(link, check=replace(link.check, skill=link.check.skill + 1)),
        "dice": replace(link, claim=replace(link.claim, dice=(6, 6) if link.claim.dice != (6, 6) else (1, 1))),
        "outcome": replace(link, claim=replace(link.claim, outcome=other_outcome)),
    }
    for what, changed in changes.items():
        forged = links.encode_link(changed, digest=link.digest)
        opened = open_link(forged)
        assert opened.status == "altered", what
        assert "digest" in opened.verdict.mismatches, what


def test_a_link_panel_shows_verdicts_and_keeps_names_as_text():
    app = KostkaApp()
    fate(app.state, name=XSS)
    entry = app.state.roll()
    payload = entry_link(entry).link
    app.share.open("#r=" + payload)
    body = app.link_panel.body.object
    assert 'data-status="verified"' in body and "This roll follows from this link." in body
    assert "<img" not in body and "&lt;img src=x" in body
    assert body.count('class="die d6') == 2
    link = links.decode_link(payload)
    dice = (1, 1) if link.claim.dice != (1, 1) else (6, 6)
    forged = links.encode_link(replace(link, claim=replace(link.claim, dice=dice)), digest=link.digest)
    app.share.open(forged)
    assert 'data-status="altered"' in app.link_panel.body.object and "the dice" in app.link_panel.body.object
    # the dice it claims are not drawn as a result (they used to be, under the warning)
    assert 'class="die' not in app.link_panel.body.object and "link-outcome" not in app.link_panel.body.object
    assert "Its dice and result are not shown" in app.link_panel.body.object
    app.tr.lang = "ru"
    assert "Эта ссылка была изменена" in app.link_panel.body.object
    app.share.close()
    assert app.link_panel.body.object == "" and app.link_panel.buttons.objects == []


@pytest.mark.parametrize(
    "text", ["", "#r=", "#r=AAAA", "r=" + "A" * 5000, "https://x/#r=@@@", "#q=1", None, 17, "#r=a&r=b"]
)
def test_bad_links_give_a_message_and_change_nothing(text):
    app = KostkaApp()
    fate(app.state)
    before = app.state.characters_json()
    opened = app.share.open(text)
    assert opened.status == "unreadable" and isinstance(opened.error, InputError) and opened.error.message
    assert "This link could not be read" in app.link_panel.body.object
    assert app.state.characters_json() == before and app.state.rolls.log.entries == []


def test_session_numbers_per_character_and_gaps():
    app = AppState()
    share = ShareModel(session=app.rolls.session)
    app.rolls.session.set_code("  ABC ")
    assert app.rolls.session.code == "ABC"
    fate(app, name="Hanar")
    first = [app.roll() for _ in range(3)]
    fate(app, name="Bo")
    other = app.roll()
    assert [e.session_number for e in first] == [1, 2, 3] and other.session_number == 1
    groups = {g.name: g for g in share.gaps(app.rolls.log.entries)}
    assert groups["Hanar"].complete and groups["Hanar"].numbers == (1, 2, 3)
    rows = log_rows(Translator(), app.rolls.log.entries)
    assert "Session ABC, roll no. 3" in rows[1][1]
    # the game master's view: links received, one of them never shared
    gm = ShareModel()
    for entry in (first[0], first[2]):
        gm.open(entry_link(entry).link)
    (group,) = gm.gaps()
    assert group.missing == (2,) and group.session_code == "ABC" and group.name == "Hanar"
    # a roll made again at a number already used (e.g. after clearing the browser) shows as a repeat
    again = AppState()
    again.rolls.session.set_code("ABC")
    fate(again, name="Hanar")
    again.fate.difficulty = "2"
    gm.open(entry_link(again.roll()).link)
    (group,) = gm.gaps()
    assert group.duplicates == (1,)


def test_a_session_code_is_checked_and_survives_storage():
    session = SessionState()
    for bad in ("x" * 17, "a\u0000b"):
        with pytest.raises(InputError):
            session.set_code(bad)
    session.set_code("Středa")
    session.next_number("Hanar")
    restored = SessionState()
    restored.load(session.to_json())
    assert restored.code == "Středa" and restored.next_number("Hanar") == 2
    for junk in (
        "",
        "[]",
        "{",
        json.dumps({"code": 5}),
        json.dumps({"numbers": {"no-separator": 1}}),
        json.dumps({"numbers": {"a\u0000b": -1}}),
        json.dumps({"code": "x" * 99}),
    ):
        with pytest.raises(InputError):
            read_session(junk)


def test_a_secret_roll_is_hidden_until_revealed_everywhere():
    app = KostkaApp()
    state = app.state
    one_ring(state)
    state.one_ring.secret = True
    view = app.view_of("one-ring")
    view.roll()
    entry = state.one_ring.last
    assert entry.hidden
    shown = app.result_panel.box
    assert "hidden until the GM reveals it" in shown.roll["status"] and 'class="die' not in shown.roll["dice"]
    assert "hidden" in app.log_table.object
    exported = json.loads(export_log(state.rolls.log.entries))
    assert exported["format"] == "kostka" and exported["kind"] == "log"
    assert "seed" not in exported["rolls"][0] and exported["rolls"][0]["result"] is None
    assert "seed" not in json.loads(state.rolls.log.to_json())["rolls"][0]
    share = entry_link(entry)
    assert share.kind == "secret" and not share.reveal
    assert app.share_panel.url.endswith(share.link)
    assert [a["key"] for a in app.result_panel.box.actions] == ["reveal"]
    sealed = open_link(share.link)
    assert sealed.status == "sealed" and sealed.roll is None
    assert str(entry.seed) not in json.dumps(sealed.link.to_dict())
    other = ShareModel()
    other.open(share.link)
    with pytest.raises(InputError):
        other.reveal(links.reveal_code(entry.seed ^ 1))
    app.result_panel.press("reveal")
    assert not entry.hidden
    assert shown.roll["dice"].count('class="die') == 3 and "hidden" not in app.log_table.object
    share = entry_link(entry)
    assert share.reveal in app.share_panel.message.object
    opened = other.reveal(share.reveal)
    assert opened.status == "verified" and opened.roll == entry.roll
    assert open_link(share.revealed).roll == entry.roll


def _typos(code: str) -> list[str]:
    """What a game master may type instead of ``code``: a letter too many, too few, one wrong, a
    stray character, a letter doubled and a space inside."""
    wrong = "A" if code[3] != "A" else "B"
    return [code + "x", code[:-1], code[:3] + wrong + code[4:], code[:5] + "!" + code[6:], code + code[-1] * 2]


@pytest.mark.parametrize("typo", range(5))
def test_a_mistyped_reveal_code_leaves_the_sealed_link_as_it_was(typo):
    secret = links.encode_secret_link(engine.FateCheck(skill=8), seed=123_456_789, name="Vlasta")
    share = ShareModel()
    sealed = share.open(secret.link)
    with pytest.raises(InputError) as info:
        share.reveal(_typos(secret.reveal)[typo])
    assert info.value.field == "reveal" and "does not open" in info.value.message
    assert share.opened is sealed and sealed.status == "sealed"
    assert share.reveal(secret.reveal).status == "verified"  # the right code still opens it


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "This reveal code does not open this secret roll."),
        ("ru", "Этот код не раскрывает этот тайный бросок."),
        ("cs", "Tento kód tento tajný hod neodhalí."),
    ],
)
def test_the_link_panel_keeps_the_reveal_field_and_the_typed_code_after_a_wrong_code(lang, words):
    secret = links.encode_secret_link(engine.FateCheck(skill=8), seed=987_654_321, name="Vlasta")
    app = KostkaApp()
    app.tr.lang = lang
    app.share.open("#r=" + secret.link)
    panel = app.link_panel
    body = panel.body.object
    assert 'data-status="sealed"' in body
    for typo in _typos(secret.reveal):
        panel.reveal_code.value = typo
        panel.reveal()
        assert words in panel.reveal_error.object
        assert panel.body.object == body  # the sealed link on screen as it was
        assert panel.shows(panel.reveal_code) and panel.shows(panel.reveal_button)
        assert panel.reveal_code.value == typo  # to correct, not to type again
    panel.reveal_code.value = secret.reveal
    panel.reveal()
    assert panel.reveal_error.object == "" and 'data-status="verified"' in panel.body.object


def test_a_secret_roll_in_a_session_takes_a_number_but_not_the_session_seed():
    app = AppState()
    app.rolls.session.set_code("ABC")
    fate(app)
    app.fate.secret = True
    entry = app.roll()
    assert entry.session_number == 1
    assert entry.seed != links.session_roll_seed("ABC", 1, entry.check, entry.character)
    sealed = links.decode_link(entry_link(entry).link)
    assert sealed.number == 1 and sealed.kind is links.Kind.SECRET


def test_a_prepared_check_link_opens_with_a_roll():
    app = KostkaApp()
    one_ring(app.state)
    app.share_panel.show_check()
    url = app.share_panel.url
    link = links.decode_link(url)
    assert link.kind is links.Kind.CHECK and link.check == app.state.one_ring.check and link.label == "awareness"
    app.state.one_ring.character.awareness = "3"  # the link on screen follows the form
    assert links.decode_link(app.share_panel.url).check.rating == 3
    other = KostkaApp()
    other.share.open(url)
    assert other.link_panel.shows(other.link_panel.roll_button)
    assert other.link_panel.roll_button.name == "Roll Awareness"  # it says what it rolls
    assert "Awareness, rating 2, TN 15" in other.link_panel.body.object
    other.link_panel.roll()
    (entry,) = other.state.rolls.log.entries
    assert entry.check == link.check and entry.character == "Hanar"
    assert "link-roll-result" in other.link_panel.rolled.object


def test_unreadable_stored_data_is_kept_aside_and_the_app_starts_clean():
    good = AppState()
    fate(good, name="Kept")
    values = {KEY_CHARACTERS: good.characters_json(), KEY_SESSION: SessionState(code="ABC").to_json()}
    state, session = AppState(), SessionState()
    out, kept = load_stored(state, session, dict(values), "20260101T000000", KEY_CHARACTERS, KEY_SESSION)
    assert kept == [] and out == values and state.fate.character.name_text == "Kept" and session.code == "ABC"

    for junk in (
        "{not json",
        "[" * 5000 + "]" * 5000,
        json.dumps({"format": "kostka", "version": 99, "kind": "characters"}),
    ):
        bad = {KEY_CHARACTERS: junk, KEY_SESSION: "nonsense", "kostka.lang": "cs"}
        state, session = AppState(), SessionState()
        out, kept = load_stored(state, session, dict(bad), "20260101T000000", KEY_CHARACTERS, KEY_SESSION)
        assert kept == [KEY_CHARACTERS, KEY_SESSION]
        assert out[f"{BACKUP_PREFIX}20260101T000000.characters"] == junk
        assert out[f"{BACKUP_PREFIX}20260101T000000.session"] == "nonsense"
        assert out[KEY_CHARACTERS] == "" and out["kostka.lang"] == "cs"
        assert state.characters_json() == AppState().characters_json() and session.code == ""
    twice = keep_aside(keep_aside({"kostka.x": "1"}, "kostka.x", "T"), "kostka.x", "T")
    assert twice[f"{BACKUP_PREFIX}T.x"] == "1" and f"{BACKUP_PREFIX}T.x+" in twice


def test_the_app_tells_the_user_about_data_kept_aside():
    app = KostkaApp()
    app.page_ready()
    app.store.values = {KEY_CHARACTERS: "{broken", KEY_SESSION: ""}
    app.store.loaded = True
    backups = [k for k in app.store.values if k.startswith(BACKUP_PREFIX)]
    assert len(backups) == 1 and app.store.values[backups[0]] == "{broken"
    assert "a copy was kept aside" in app.storage_message.object
    assert json.loads(app.store.values[KEY_CHARACTERS])  # started clean and saved again
    assert app.store.ready


def test_files_are_kostka_documents_and_import_through_the_validator():
    source = AppState()
    fate(source, name="Imported")
    source.gurps.character.skills = [{"name": "Guns", "level": "zz"}]  # half-typed: left out of the export
    text = export_characters(source)
    data = json.loads(text)
    assert (data["format"], data["version"], data["kind"]) == ("kostka", engine.documents.VERSION, "characters")
    assert engine.documents.read_document(text).kind == "characters"
    target = AppState()
    assert import_characters(target, text.encode()) >= 1
    assert "Imported" in target.rosters["fate"].names()
    before = target.characters_json()
    bad = json.loads(text)
    bad["systems"]["fate"]["characters"][0]["skill"] = 999
    with pytest.raises(InputError) as info:
        import_characters(target, json.dumps(bad))
    assert info.value.field.startswith("systems.fate.characters[0].skill")
    with pytest.raises(InputError):
        import_characters(target, b"\xff\xfe junk")
    assert target.characters_json() == before


def test_a_gurps_secret_roll_has_one_reveal_button_and_its_link_follows():
    app = KostkaApp()
    gurps(app.state)
    app.state.gurps.secret = True
    view = app.view_of("gurps")
    view.roll()
    entry = app.state.gurps.last
    assert [a["key"] for a in app.result_panel.box.actions] == ["reveal"]  # under the roll, and nowhere else
    assert "reveal" not in repr(app.share_panel.buttons.objects).lower()
    assert links.decode_link(app.share_panel.url).kind is links.Kind.SECRET
    app.result_panel.press("reveal")
    opened = open_link(app.share_panel.url)
    assert opened.link.kind is links.Kind.REVEALED and opened.roll == entry.roll


def test_a_bad_session_code_is_marked_on_the_field_and_numbering_stays_off():
    app = KostkaApp()
    panel = app.session_panel
    panel.code.value = "x" * 40
    assert "invalid" in panel.code.css_classes and "too long" in panel.code_error.object
    assert panel.code.name == "Session code"  # the label stays: a new one would redraw the field mid-typing
    assert app.state.rolls.session.code == ""
    app.tr.lang = "cs"
    assert panel.code.name == "Kód sezení" and "dlouhý" in panel.code_error.object
    panel.code.value = "Pátek"
    assert app.state.rolls.session.code == "Pátek" and "invalid" not in panel.code.css_classes


def test_a_hostile_label_in_a_prepared_check_shows_as_text():
    app = KostkaApp()
    payload = links.encode_check_link(engine.GurpsCheck(skill=12), name=XSS, label=XSS[:24])
    app.share.open(payload)
    body = app.link_panel.body.object
    assert 'data-status="verified"' in body and "<img" not in body and "&lt;img" in body
    app.link_panel.roll()
    assert "<img" not in app.log_table.object and "<img" not in app.link_panel.rolled.object


@pytest.mark.parametrize(
    ("part", "found"),
    [
        ("#r=abc", True),
        ("?lang=en&r=abc", True),
        ("?favour=3&r_ability=awe", False),
        ("#hr=1", False),
        ("", False),
        ("#", False),
    ],
)
def test_only_an_r_parameter_in_the_address_is_a_link(part, found):
    from webapp.views.shell import has_link as _has_link

    assert _has_link(part) is found


def test_each_screen_shares_its_own_last_roll_beside_it():
    app = KostkaApp()
    one_ring(app.state)
    app.view_of("one-ring").roll()
    one_ring_url = app.share_panel.url
    assert links.decode_link(one_ring_url).system == "one-ring"
    gurps(app.state)
    view = app.view_of("gurps")
    assert app.share_panel.url == "" and app.share_panels[("gurps", "contest")].url == ""  # nothing rolled here yet
    app.state.gurps.secret = True
    view.roll()
    sealed = app.share_panel.url
    assert links.decode_link(sealed).kind is links.Kind.SECRET
    layout = view._layout.objects
    # the sealed link sits under the roll's odds and charts, before the contest section
    assert layout.index(view.share_slot) > layout.index(view.odds_readout) and view.share_slot.objects == [
        app.share_panel._layout
    ]
    assert layout.index(view.share_slot) < layout.index(next(o for o in layout if isinstance(o, pn.layout.Divider)))
    view.roll_contest()
    contest = app.share_panels[("gurps", "contest")]
    assert links.decode_link(contest.url).system == "gurps-quick" and view.contest_share_slot.objects == [
        contest._layout
    ]
    assert app.share_panel.url == sealed  # a contest does not replace the roll's link
    app.state.system = "one-ring"
    assert app.share_panel.url == one_ring_url  # and the One Ring screen still shares its own


def session_links(code, name, numbers):
    """Links of a player's session rolls no. ``numbers`` (a number given twice: two different rolls)."""
    out = []
    for i, n in enumerate(numbers):
        check = engine.FateCheck(skill=8, difficulty=i)
        seed = links.session_roll_seed(code, n, check, name)
        out.append(links.encode_roll_link(check, seed=seed, name=name, session_code=code, number=n))
    return out


def test_the_numbering_gathers_every_link_of_the_evening_and_survives_a_reload():
    from webapp.state.links import NUMBERING_KEY

    one, three, two = session_links("Friday", "Hanar", [1, 3, 2])
    app = KostkaApp()
    app._doc_ready = True
    app.store.param.update(values={}, loaded=True)
    for link in (one, three, two, two):  # no. 2 opened a second time
        app.share.open(link)
    report = app.session_panel.report.object
    assert "Friday · Hanar: numbers 1–3" in report and "missing" not in report
    assert "no. 2 twice: the same roll opened again" in report
    stored = app.store.values[NUMBERING_KEY]
    # another visit (a reload, another tab) starts from what the browser kept
    again = KostkaApp()
    again._doc_ready = True
    again.store.param.update(values={NUMBERING_KEY: stored}, loaded=True)
    assert "numbers 1–3" in again.session_panel.report.object
    # the game master pastes a batch: a different roll no. 3 is a roll made again
    other_three = session_links("Friday", "Hanar", [3, 3, 3])[2]
    again.session_panel.paste.value = f"{other_three}\n\nnot a link\n"
    again.session_panel.add_links()
    assert "1 session link added. 1 line is not a session link." in again.session_panel.paste_message.object
    assert "no. 3 twice: rolled again" in again.session_panel.report.object
    again.session_panel.forget_code.value = "Friday"
    again.session_panel.forget()  # a finished session
    assert again.session_panel.report.object == "" and again.store.values[NUMBERING_KEY] == ""


@pytest.mark.parametrize(
    "text",
    [
        "{",
        '{"links": 5}',
        '{"links": ["abc"]}',
        '{"links": [' + '"x",' * 600 + '"x"]}',
        "x" * 500_000,
        '{"links": ["' + '\\"[' * 130_000,  # escaped quotes: their scan was quadratic
    ],
)
def test_an_unreadable_stored_numbering_is_kept_aside_and_said(text):
    from webapp.state.links import NUMBERING_KEY, read_numbering

    with pytest.raises(InputError):
        read_numbering(text)
    app = KostkaApp()
    app._doc_ready = True
    app.store.param.update(values={NUMBERING_KEY: text}, loaded=True)
    assert "numbering of session rolls could not be read" in app.storage_message.object
    assert any(k.startswith("kostka.backup.") and v == text for k, v in app.store.values.items())
    assert app.store.values[NUMBERING_KEY] == "" and app.share.seen == []


def test_a_first_roll_shows_the_share_buttons_already_on_the_page():
    """The Copy and QR buttons are drawn hidden with the screen: a first roll only shows them
    (making them then took most of its time in the browser), by their style: a change of
    ``visible`` makes the page lay out its whole document again."""
    from bokeh.document import Document

    app = KostkaApp()
    one_ring(app.state)
    panel = app.share_panel
    root = pn.panel(panel).get_root(Document())
    models = {part: part._models[root.ref["id"]][0] for part in (panel.copy, panel.qr_button)}
    assert not panel.shows(panel.copy) and not panel.shows(panel.qr_button)
    assert all(m.styles.get("display") == "none" for m in models.values())
    app.view_of("one-ring").roll()
    assert panel.shows(panel.copy) and panel.shows(panel.qr_button)
    for part, model in models.items():
        assert part._models[root.ref["id"]][0] is model  # the same model, shown
        assert model.visible and model.styles.get("display") == ""  # the browser drops an empty style


def test_a_look_alike_name_counts_as_the_same_character_and_is_flagged():
    """``Hanаr`` with a Cyrillic ``а`` is Hanar's numbering, and the game master reads why."""
    look_alike = "Han\u0430r"
    one, two = session_links("Friday", "Hanar", [1, 2])
    (three,) = session_links("Friday", look_alike, [3])
    (again,) = session_links("Friday", look_alike, [2])
    app = KostkaApp()
    app._doc_ready = True
    app.store.param.update(values={}, loaded=True)
    for link in (one, two, three):
        app.share.open(link)
    (group,) = app.share.gaps()
    assert (group.name, group.numbers, group.missing, group.look_alikes) == ("Hanar", (1, 2, 3), (), (look_alike,))
    report = app.session_panel.report.object
    assert "Friday · Hanar: numbers 1–3" in report and "missing" not in report
    assert f"written 1 other way that looks the same, counted as this character: {look_alike}" in report
    assert "U+0430 CYRILLIC SMALL LETTER A" in report
    # the same number under the look-alike name is a roll made again
    app.share.open(again)
    assert "no. 2 twice: rolled again" in app.session_panel.report.object
    app.session_panel.tr.lang = "ru"
    app.session_panel._report()
    assert "ещё 1 написание, которое выглядит так же" in app.session_panel.report.object
    app.session_panel.tr.lang = "cs"
    app.session_panel._report()
    assert "ještě 1 zápis, který vypadá stejně" in app.session_panel.report.object


def test_look_alike_names_are_escaped_and_counted_in_every_language():
    from webapp.words.numbering import look_alikes_text, telling_characters

    spellings = ("Han\u0430r", "H\u0430n\u0430r", XSS)
    for lang, words in (("en", "3 other ways"), ("ru", "ещё 3 написания"), ("cs", "ještě 3 zápisy")):
        assert words in look_alikes_text(Translator(lang=lang), "Hanar", spellings)
    assert "ещё 5 написаний" in look_alikes_text(Translator(lang="ru"), "Hanar", ("a", "b", "c", "d", "e"))
    assert telling_characters("Han\u200dar", "Hanar") == "U+200D ZERO WIDTH JOINER"
    # a name from a link is shown as text, never as markup
    (link,) = session_links("Friday", XSS, [1])
    (look_alike,) = session_links("Friday", XSS.replace("a", "\u0430"), [2])
    app = KostkaApp()
    app._doc_ready = True
    app.store.param.update(values={}, loaded=True)
    app.share.open(link)
    app.share.open(look_alike)
    report = app.session_panel.report.object
    assert "<img" not in report and "&lt;img" in report and "U+0430" in report


def test_the_session_numbering_goes_on_under_a_look_alike_name():
    session = SessionState()
    session.set_code("Friday")
    assert [session.next_number("Hanar"), session.next_number("Han\u0430r"), session.next_number("Hanar")] == [1, 2, 3]
    assert session.next_number("Bo") == 1


def secret_and_forgery(session_code: str | None = None) -> tuple[links.SecretRoll, str]:
    """A sealed secret roll and its reveal, and a revealed link forged for the same roll with other
    dice: another seed, its dice and a recomputed digest (the digest has no key)."""
    secret = links.encode_secret_link(
        engine.FateCheck(skill=8),
        seed=123_456_789,
        name="Vlasta",
        session_code=session_code,
        number=1 if session_code else None,
    )
    revealed = links.decode_link(secret.revealed_link)
    other = next(
        s for s in range(1, 100) if links.claim_of(engine.roll_check(revealed.check, s)).dice != revealed.claim.dice
    )
    forged = links.encode_link(
        replace(revealed, seed=other, claim=links.claim_of(engine.roll_check(revealed.check, other)))
    )
    return secret, forged


def test_a_revealed_link_alone_is_not_verified_and_says_what_it_proves():
    secret, forged = secret_and_forgery()
    for payload in (secret.revealed_link, forged):
        opened = open_link(payload)
        assert opened.verdict.verified and opened.status == "revealed" and not opened.sealed_seen
    app = KostkaApp()
    app.share.open("#r=" + forged)
    body = app.link_panel.body.object
    assert 'data-status="revealed"' in body and "outcome good" not in body
    assert "it shows that these dice follow from its seed" in body and "sealed link, opened here" in body
    assert 'data-testid="link-dice"' in body  # the dice do follow from the seed
    app.tr.lang = "ru"
    assert "запечатанная ссылка" in app.link_panel.body.object
    app.tr.lang = "cs"
    assert "zapečetěný odkaz" in app.link_panel.body.object


@pytest.mark.parametrize("session_code", [None, "GM-ÚTERÝ"])
def test_a_revealed_link_is_checked_against_the_sealed_link_this_device_has_seen(session_code):
    secret, forged = secret_and_forgery(session_code)
    app = KostkaApp()
    app.share.open("#r=" + secret.link)  # the game master's sealed link, opened here
    assert app.share.opened.status == "sealed"
    opened = app.share.open(secret.revealed_link)
    assert opened.status == "verified" and opened.sealed_seen
    body = app.link_panel.body.object
    assert 'data-status="verified"' in body and "matches the sealed link you have" in body
    opened = app.share.open(forged)
    assert opened.status == "altered" and opened.verdict.mismatches == ("sealed",)
    body = app.link_panel.body.object
    assert 'data-status="altered"' in body and "the sealed link you have" in body and 'class="die' not in body
    # another secret roll's sealed link says nothing about this one
    other = links.encode_secret_link(engine.FateCheck(skill=9), seed=5, name="Vlasta")
    assert open_link(forged, sealed=[other.link]).status == "revealed"


def test_the_sealed_link_of_a_sessions_numbering_checks_its_reveal_after_a_reload():
    secret, forged = secret_and_forgery("GM-ÚTERÝ")
    share = ShareModel()
    share.add_links(secret.link)  # the game master's batch of the evening's links
    restored = ShareModel(seen=read_numbering(numbering_json(share.seen)))
    assert restored.open(secret.revealed_link).status == "verified"
    assert restored.open(forged).status == "altered"
    # the link in the address is opened before the stored numbering is read: it is checked again then
    early = ShareModel()
    assert early.open(forged).status == "revealed"
    early.seen = read_numbering(numbering_json(share.seen))
    assert early.opened.status == "altered" and early.opened.verdict.mismatches == ("sealed",)


def test_a_revealed_link_of_this_devices_own_secret_roll_is_checked_against_it():
    app = KostkaApp()
    fate(app.state)
    app.state.fate.secret = True
    entry = app.state.roll()
    app.state.rolls.log.reveal(entry.number)
    share = entry_link(entry)
    assert app.share.open(share.revealed).status == "verified"
    revealed = links.decode_link(share.revealed)
    other = next(
        s for s in range(1, 100) if links.claim_of(engine.roll_check(revealed.check, s)).dice != revealed.claim.dice
    )
    forged = links.encode_link(
        replace(revealed, seed=other, claim=links.claim_of(engine.roll_check(revealed.check, other)))
    )
    assert app.share.open(forged).status == "altered"
