"""The table of the fight's words: every kind of event has its entry, and records say what their JSON says."""

from __future__ import annotations

import pytest
from fight_golden import golden_logs

from engine.fate import events as ev
from webapp.i18n import LANGUAGES, Translator
from webapp.words.fight import WORDS, describe_events, no_extra_attack_text


def test_every_kind_of_event_has_its_words():
    assert set(WORDS) == set(ev.EVENTS.values())
    assert [k for k, words in WORDS.items() if words is None] == [ev.RoundEnd]


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_records_and_their_json_read_the_same(lang):
    tr = Translator(lang=lang)
    for log, sides in golden_logs().values():
        records = ev.read_events(log)
        assert describe_events(tr, records, sides) == describe_events(tr, log, sides)


def test_why_no_extra_attack_takes_a_record_or_its_json():
    tr = Translator(lang="en")
    log, _ = golden_logs()["fight_chain"]
    attack = next(e for e in log if e["event"] == "attack")
    assert no_extra_attack_text(tr, attack) == no_extra_attack_text(tr, ev.read_event(attack))
    with pytest.raises(TypeError):
        no_extra_attack_text(tr, ev.Fall("Ogre", "Ada"))
