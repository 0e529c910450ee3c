"""Two tabs of one browser: what one stores is merged into the other, nothing written over."""

from __future__ import annotations

import json

import pytest

from webapp.state.app import AppState
from webapp.state.links import NUMBERING_KEY, ShareModel, numbering_json
from webapp.state.merge import merge_fields, merge_rows, merge_sets
from webapp.state.stored import BACKUP_PREFIX, KEY_CHARACTERS, KEY_LANG, KEY_LOG, KEY_SESSION
from webapp.state.tabs import merge_from_tab

STAMP = "20261207T210000"


def _tab(stored: dict[str, str]) -> tuple[AppState, ShareModel]:
    """A tab that has read ``stored`` at its start."""
    state = AppState(system="gurps")
    share = ShareModel(session=state.rolls.session)
    if stored.get(KEY_CHARACTERS):
        state.load_characters(stored[KEY_CHARACTERS])
    if stored.get(KEY_LOG):
        state.rolls.log.load_storage(stored[KEY_LOG])
    if stored.get(KEY_SESSION):
        share.session.load(stored[KEY_SESSION])
    return state, share


def _stored(state: AppState, share: ShareModel) -> dict[str, str]:
    return {
        KEY_CHARACTERS: state.characters_json(),
        KEY_LOG: state.rolls.log.to_storage(),
        KEY_SESSION: share.session.to_json(),
        NUMBERING_KEY: numbering_json(share.seen) if share.seen else "",
    }


def _gurps(state: AppState) -> list[dict]:
    return [c.valid for c in state.gurps_roster.sheets()]


@pytest.fixture
def vera() -> dict[str, str]:
    """What the browser holds when both tabs open: Vera, Stealth-12."""
    state, share = _tab({})
    state.gurps.character.param.update(name_text="Vera", dx="12")
    state.gurps.character.skills = [{"name": "Stealth", "level": "12"}]
    return _stored(state, share)


def test_two_tabs_keep_each_others_characters_and_rolls(vera):
    """Tab A adds Alice and rolls twice; tab B, opened before, rolls once and raises Vera's skill.
    Before, B's save left only Vera and one roll; now B takes in what A stored."""
    a, a_share = _tab(vera)
    b, b_share = _tab(vera)
    a.gurps_roster.add()
    a.gurps.character.param.update(name_text="Alice", dx="11")
    a.roll(seed=1)
    a.roll(seed=2)
    after_a = _stored(a, a_share)
    b.roll(seed=3)
    b.gurps_roster.select(0)
    b.gurps.character.skills = [{"name": "Stealth", "level": "14"}]

    merge = merge_from_tab(b, b_share, vera, after_a, _stored(b, b_share), STAMP)

    assert merge.kept_aside == []
    chars = _gurps(b)
    assert [c["name"] for c in chars] == ["Vera", "Alice"]
    assert chars[0]["skills"] == [{"name": "Stealth", "level": 14}]
    assert sorted(e.seed for e in b.rolls.log.entries) == [1, 2, 3]
    assert [e.number for e in b.rolls.log.entries] == [1, 2, 3]
    # and A, told of what B then stored, ends where B is
    merge_from_tab(a, a_share, after_a, _stored(b, b_share), _stored(a, a_share), STAMP)
    assert _gurps(a) == chars
    assert sorted(e.seed for e in a.rolls.log.entries) == [1, 2, 3]


def test_the_same_field_changed_in_both_keeps_ours_and_theirs_aside(vera):
    a, a_share = _tab(vera)
    b, b_share = _tab(vera)
    a.gurps.character.skills = [{"name": "Stealth", "level": "13"}]
    b.gurps.character.skills = [{"name": "Stealth", "level": "15"}]
    theirs = _stored(a, a_share)
    stored = _stored(b, b_share)

    merge = merge_from_tab(b, b_share, vera, theirs, stored, STAMP)

    assert _gurps(b)[0]["skills"] == [{"name": "Stealth", "level": 15}]
    assert merge.kept_aside == [KEY_CHARACTERS]
    backups = {k: v for k, v in merge.values.items() if k.startswith(BACKUP_PREFIX)}
    assert list(backups.values()) == [theirs[KEY_CHARACTERS]]
    # the backup brings the other tab's Vera back as a character of her own
    assert b.load_characters(theirs[KEY_CHARACTERS], merge=True) == 1
    assert [c["name"] for c in _gurps(b)] == ["Vera", "Vera (2)"]


def test_the_character_being_typed_on_stays_on_the_form(vera):
    """A change made in another tab to another character does not put this tab's form back."""
    a, a_share = _tab(vera)
    b, b_share = _tab(vera)
    a.gurps_roster.add()
    a.gurps.character.name_text = "Alice"
    b.gurps.character.st = "1"  # on the way to "14"
    form = b.gurps.character
    merge_from_tab(b, b_share, vera, _stored(a, a_share), _stored(b, b_share), STAMP)
    assert b.gurps.character is form and form.st == "1" and form.name_text == "Vera"
    assert b.gurps_roster.current == 0


def test_a_deleted_character_stays_deleted_unless_changed_there(vera):
    a, a_share = _tab(vera)
    a.gurps_roster.add()
    a.gurps.character.name_text = "Alice"
    both = _stored(a, a_share)
    b, b_share = _tab(both)
    a.gurps_roster.select(0)
    a.gurps_roster.remove()  # Vera goes in A
    merge_from_tab(b, b_share, both, _stored(a, a_share), _stored(b, b_share), STAMP)
    assert [c["name"] for c in _gurps(b)] == ["Alice"]


def test_a_cleared_log_stays_cleared_and_numbers_are_not_spent_twice(vera):
    a, a_share = _tab(vera)
    a_share.session.set_code("table")
    a.roll()
    a.roll()
    both = _stored(a, a_share)
    b, b_share = _tab(both)
    b.roll()  # Vera's third session roll in B
    a.rolls.log.clear()
    merge_from_tab(b, b_share, both, _stored(a, a_share), _stored(b, b_share), STAMP)
    assert [e.session_number for e in b.rolls.log.entries] == [3]
    merge_from_tab(a, a_share, _stored(a, a_share), _stored(b, b_share), _stored(a, a_share), STAMP)
    assert a.roll().session_number == 4  # the number B took is taken


def test_a_language_chosen_in_another_tab_is_not_written_back(vera):
    b, b_share = _tab(vera)
    stored = {**_stored(b, b_share), KEY_LANG: "en"}
    merge = merge_from_tab(b, b_share, stored, {KEY_LANG: "cs"}, stored, STAMP)
    assert merge.values == {KEY_LANG: "cs"}


def test_what_cannot_be_read_is_kept_aside(vera):
    b, b_share = _tab(vera)
    before = _gurps(b)
    merge = merge_from_tab(b, b_share, vera, {KEY_CHARACTERS: "{not json", KEY_LOG: "[]"}, vera, STAMP)
    assert sorted(merge.kept_aside) == [KEY_CHARACTERS, KEY_LOG]
    assert sorted(v for k, v in merge.values.items() if k.startswith(BACKUP_PREFIX)) == ["[]", "{not json"]
    assert _gurps(b) == before


# -- the merges themselves ------------------------------------------------------------------------------


def test_merge_fields_takes_each_sides_change():
    base = {"a": 1, "b": 1, "c": 1}
    assert merge_fields(base, {**base, "a": 2}, {**base, "b": 3}) == ({"a": 2, "b": 3, "c": 1}, False)
    assert merge_fields(base, {**base, "a": 2}, {**base, "a": 3}) == ({**base, "a": 2}, True)
    assert merge_fields(1, 1, 2) == (2, False)


def test_merge_rows_keeps_both_sides_additions_in_place():
    merged = merge_rows(["v"], ["v", "a"], ["v", "b"])
    assert merged.values == ["v", "a", "b"]
    assert merge_rows(["v"], ["v", "a"], ["v", "a"]).values == ["v", "a"]  # one addition, made twice
    assert merge_rows(["x", "v"], ["v"], ["x", "v", "b"]).values == ["v", "b"]


def test_merge_sets_follows_both_sides_removals():
    assert merge_sets([1, 2], [1, 2, 3], [2, 4]) == [2, 3, 4]


def test_stored_texts_round_trip_through_json(vera):
    assert json.loads(vera[KEY_CHARACTERS])["kind"] == "characters"


# -- what does not fit a roster ---------------------------------------------------------------------------


def _document(names: list[str]) -> str:
    state = AppState(system="gurps")
    for i, name in enumerate(names):
        if i:
            state.gurps_roster.add()
        state.gurps.character.name_text = name
    return state.characters_json()


def test_an_import_that_does_not_fit_the_roster_is_refused_whole():
    """39 characters and a file of 2 new ones: the second used to be dropped unsaid (40 kept)."""
    from engine import InputError
    from webapp.i18n import Translator
    from webapp.words.messages import document_error_text

    state = AppState(system="gurps")
    state.load_characters(_document([f"Hero {i}" for i in range(39)]))
    before = state.characters_json()
    with pytest.raises(InputError) as caught:
        state.load_characters(_document(["Alice", "Bob"]), merge=True)
    assert state.characters_json() == before
    assert caught.value.params["kind"] == "room" and caught.value.params["room"] == 1
    words = {lang: document_error_text(Translator(lang=lang), caught.value) for lang in ("en", "ru", "cs")}
    assert words["en"] == (
        "Nothing was imported: the file has 2 new characters, and a system keeps at most 40 (room for 1 more)."
    )
    assert "2 новых персонажа" in words["ru"] and "2 nové postavy" in words["cs"]
    assert state.load_characters(_document(["Alice"]), merge=True) == 1  # what fits is taken
    assert len(state.gurps_roster.characters) == 40


# -- the page: told by the store, it merges, says so and can bring the other tab's values back --------


@pytest.fixture
def no_address():
    """The page's address empty: tests before may have left one in Panel's location (no document)."""
    import panel as pn
    from panel.util import edit_readonly

    location = pn.state.location
    if location is not None:
        with edit_readonly(location):
            location.param.update(href="", search="", hash="")
    yield


def test_the_page_merges_a_tabs_write_says_a_conflict_and_brings_it_back(vera, no_address):
    from webapp.views.shell import KostkaApp

    app = KostkaApp()
    app.page_ready()
    app.store.values = dict(vera)
    app.store.loaded = True
    app.state.system = "gurps"
    other, other_share = _tab(vera)
    other.gurps.character.skills = [{"name": "Stealth", "level": "13"}]
    other.gurps_roster.add()
    other.gurps.character.name_text = "Alice"
    app.state.gurps.character.skills = [{"name": "Stealth", "level": "15"}]
    assert app.store.merged == 0

    app.store.outside = {"seq": 1, "base": dict(vera), "theirs": {KEY_CHARACTERS: other.characters_json()}}

    assert app.store.merged == 1  # the store may write again
    assert [c["name"] for c in _gurps(app.state)] == ["Vera", "Alice"]
    assert _gurps(app.state)[0]["skills"] == [{"name": "Stealth", "level": 15}]
    assert "Vera" in app.store.values[KEY_CHARACTERS] and "Alice" in app.store.values[KEY_CHARACTERS]
    assert "Another tab changed the same characters" in app.storage_message.object
    assert app.bring_back.visible
    app.bring_back.clicks += 1
    assert [c["name"] for c in _gurps(app.state)] == ["Vera", "Alice", "Vera (2)"]
    assert _gurps(app.state)[2]["skills"] == [{"name": "Stealth", "level": 13}]
    assert not app.bring_back.visible


def test_the_page_says_a_full_storage_and_takes_it_back_when_written(vera):
    from webapp.views.shell import KostkaApp

    app = KostkaApp()
    app.store.failed = [KEY_CHARACTERS]
    assert "storage is full" in app.storage_message.object
    app.store.failed = []
    assert app.storage_message.object == ""


def test_new_character_on_a_full_roster_is_said_not_added():
    """The 41st character used to be added, and stored more than a roster keeps."""
    from webapp.views.shell import KostkaApp

    app = KostkaApp()
    app.state.system = "gurps"
    roster = app.state.gurps_roster
    for _ in range(39):
        roster.add()
    assert len(roster.characters) == 40
    app._new_character()
    assert len(roster.characters) == 40
    assert "at most 40 characters" in app.delete_note.object
