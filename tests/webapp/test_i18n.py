"""The gettext catalogues: complete, compiled from their sources, with matching placeholders."""

from __future__ import annotations

import io
import string
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

import engine
from webapp.extract import extract_marked
from webapp.i18n import LANGUAGES, LOCALE_DIR, Translator, catalogue, error_text, normalise_language

ROOT = Path(__file__).resolve().parents[2]
LOCALES = Path(LOCALE_DIR)


def po(lang: str):
    with open(LOCALES / lang / "LC_MESSAGES" / "kostka.po", "rb") as f:
        return read_po(f, locale=lang)


def fields(text: str) -> set[str]:
    return {name for _, name, spec, _ in string.Formatter().parse(text) if name is not None}


def used_messages() -> set[str]:
    """Every msgid in the code (a message with a count by its singular, as catalogues key it)."""
    messages = set()
    for path in (ROOT / "webapp").rglob("*.py"):
        with open(path, "rb") as f:
            messages.update(m[0] if isinstance(m, tuple) else m for _, _, m, _ in extract_marked(f, None, None, {}))
    return messages


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_committed_mo_equals_a_fresh_compile_of_the_po(lang):
    catalog = po(lang)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    assert (LOCALES / lang / "LC_MESSAGES" / "kostka.mo").read_bytes() == buffer.getvalue()


@pytest.mark.parametrize("lang", ["ru", "cs"])
def test_every_message_is_translated_with_the_same_placeholders(lang):
    catalog = po(lang)
    ids = [m for m in catalog if m.id]
    assert ids
    for message in ids:
        assert "fuzzy" not in message.flags, message.id
        if message.pluralizable:  # each of the language's forms, with the placeholders of the English ones
            assert len(message.string) == catalog.num_plurals == 3, message.id
            for form in message.string:
                assert form, f"{lang}: no translation for {message.id!r}"
                assert fields(form) == fields(message.id[1]) == fields(message.id[0]), message.id
            continue
        assert message.string, f"{lang}: no translation for {message.id!r}"
        assert fields(message.string) == fields(message.id), message.id


def test_every_message_in_the_code_is_in_every_catalogue():
    used = used_messages()
    assert len(used) > 150
    for lang in LANGUAGES:
        ids = {m.id[0] if m.pluralizable else m.id for m in po(lang) if m.id}
        assert used <= ids, f"{lang} lacks {sorted(used - ids)}; run pybabel extract/update"


def test_the_template_is_up_to_date():
    with open(LOCALES / "kostka.pot", "rb") as f:
        template = {m.id[0] if m.pluralizable else m.id for m in read_po(f) if m.id}
    assert template == used_messages()


def test_rule_terms_use_the_players_words():
    ru, cs = catalogue("ru"), catalogue("cs")
    assert ru.gettext("Eye of Sauron") == "Око Саурона"
    assert ru.gettext("Gandalf rune") == "Руна Гэндальфа"
    assert ru.gettext("Feat die") == "Кость подвига"
    assert ru.gettext("Great success") == "Великий успех"
    assert ru.gettext("TN {tn}") == "ЦЧ {tn}"
    assert cs.gettext("Eye of Sauron") == "Sauronovo oko"
    assert cs.gettext("Gandalf rune") == "Gandalfova runa"
    assert cs.gettext("Critical failure") == "Kritický neúspěch"


def test_translator_switches_language():
    tr = Translator()
    assert tr("Roll") == "Roll"
    tr.lang = "ru"
    assert tr("Roll") == "Бросить"
    tr.lang = "cs"
    assert tr("Roll") == "Hodit"
    assert tr("TN {tn}", tn=13) == "CČ 13"


@pytest.mark.parametrize(("value", "lang"), [("ru-RU", "ru"), ("CS", "cs"), ("de", "en"), (None, "en"), (5, "en")])
def test_normalise_language(value, lang):
    assert normalise_language(value) == lang


def errors():
    yield engine.InputError("rating", "range", "ENGLISH TEXT", low=0, high=6)
    yield engine.InputError("rating", "type", "ENGLISH TEXT", low=0, high=6)
    yield engine.InputError("rating", "empty", "ENGLISH TEXT")
    yield engine.InputError("tries", "range", "ENGLISH TEXT", low=1, high=None)
    yield engine.RuleError("favour_spend", "ENGLISH TEXT", held=2)
    yield engine.RuleError("skill", "ENGLISH TEXT", value=2, low=3)
    yield engine.InputError("characters", "format", "ENGLISH TEXT")
    yield engine.InputError("x", "choice", "ENGLISH TEXT", allowed=["a"])


@pytest.mark.parametrize("error", list(errors()), ids=lambda e: f"{e.field}-{e.code}")
def test_engine_errors_are_translated_from_their_codes(error):
    texts = {}
    for lang in LANGUAGES:
        tr = Translator(lang=lang)
        texts[lang] = error_text(tr, error)
        assert texts[lang]
        assert error.message not in texts[lang]
    assert len(set(texts.values())) == 3
    for key in ("low", "high", "held"):
        value = error.params.get(key)
        if value is not None:
            assert all(str(value) in t for t in texts.values())


def test_favour_error_names_what_is_held():
    tr = Translator(lang="ru")
    error = engine.RuleError("favour_spent", "ENGLISH TEXT", value=3, high=2)
    assert "2" in error_text(tr, error)


PLURALS = {  # a count of 1, 2, 5 and 21 in each language: the forms a player reads
    "en": [
        "You hold only 1 favour point.",
        "You hold only 2 favour points.",
        "You hold only 5 favour points.",
        "You hold only 21 favour points.",
    ],
    "ru": [
        "У вас только 1 очко благосклонности.",
        "У вас только 2 очка благосклонности.",
        "У вас только 5 очков благосклонности.",
        "У вас только 21 очко благосклонности.",
    ],
    "cs": ["Máte jen 1 bod přízně.", "Máte jen 2 body přízně.", "Máte jen 5 bodů přízně.", "Máte jen 21 bodů přízně."],
}


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_a_count_takes_the_plural_form_of_its_language(lang):
    tr = Translator(lang=lang)
    texts = [error_text(tr, engine.RuleError("favour_spend", "ENGLISH TEXT", held=n)) for n in (1, 2, 5, 21)]
    assert texts == PLURALS[lang]


@pytest.mark.parametrize(
    ("lang", "forms"),
    [
        (
            "en",
            ["Only 1 point is held.", "Only 2 points are held.", "Only 5 points are held.", "Only 21 points are held."],
        ),
        ("ru", ["Есть только 1 очко.", "Есть только 2 очка.", "Есть только 5 очков.", "Есть только 21 очко."]),
        (
            "cs",
            [
                "K dispozici je jen 1 bod.",
                "K dispozici jsou jen 2 body.",
                "K dispozici je jen 5 bodů.",
                "K dispozici je jen 21 bodů.",
            ],
        ),
    ],
)
def test_every_message_with_a_count_has_its_plural_forms(lang, forms):
    tr = Translator(lang=lang)
    assert [tr.ngettext("Only {n} point is held.", "Only {n} points are held.", n) for n in (1, 2, 5, 21)] == forms
    dice = [tr.ngettext("{n} success die", "{n} success dice", n) for n in (1, 2, 5, 21)]
    assert (
        dice
        == {
            "en": ["1 success die", "2 success dice", "5 success dice", "21 success dice"],
            "ru": ["1 кость успеха", "2 кости успеха", "5 костей успеха", "21 кость успеха"],
            "cs": ["1 kostka úspěchu", "2 kostky úspěchu", "5 kostek úspěchu", "21 kostek úspěchu"],
        }[lang]
    )
    # every message with a count in the code is extracted with both English forms and translated in all three
    plurals = set()
    for path in (ROOT / "webapp").rglob("*.py"):
        with open(path, "rb") as f:
            plurals.update(m for _, _, m, _ in extract_marked(f, None, None, {}) if isinstance(m, tuple))
    catalog = {m.id: m for m in po(lang) if m.pluralizable}
    assert len(plurals) >= 6 and plurals <= set(catalog)
    for singular, plural in plurals:
        for n in (1, 2, 5, 21):
            others = {name: "" for name in fields(plural) if name != "n"}
            assert tr.ngettext(singular, plural, n, **others).count(str(n)) >= 1, (singular, n)


def test_a_count_still_being_typed_takes_the_general_form():
    tr = Translator(lang="cs")
    assert (
        tr.ngettext("At least one success in {n} try", "At least one success in {n} tries", "1x")
        == "Aspoň jeden úspěch při 1x pokusech"
    )
