"""Fate & Doom guidance against the engine: the favour a failed check says was lacking is the least
favour that turns the same dice into a success, under either tie reading, in every language."""

from __future__ import annotations

import pytest

from engine import fate as fate_rules
from webapp.i18n import Translator
from webapp.words.rolls import describe_fate_roll, favour_short_text

LANGS = ["en", "ru", "cs"]


def _roll(skill: int, result: int, ties_succeed: bool) -> fate_rules.FateRoll:
    """A roll of the check with dice summing to ``result`` (difficulty 0, no favour spent)."""
    a = min(6, result - 1)
    check = fate_rules.FateCheck(skill, ties_succeed=ties_succeed)
    return fate_rules.FateRoll(
        check=check,
        seed=0,
        dice=(a, result - a),
        result=result,
        skill=skill,
        success=check.passes(result),
        margin=skill - result,
        favour_spent=0,
    )


def _least_favour(skill: int, result: int, ties_succeed: bool) -> int:
    """The least favour k that the engine passes, spending it on the same dice."""
    k = 0
    while not fate_rules.FateCheck(skill, favour_spent=k, ties_succeed=ties_succeed).passes(result - k):
        k += 1
    return k


def _tr(lang: str) -> Translator:
    tr = Translator()
    tr.lang = lang
    return tr


@pytest.mark.parametrize("ties_succeed", [False, True])
def test_favour_short_is_the_least_favour_the_engine_passes(ties_succeed):
    for skill in range(21):
        for result in range(2, 13):
            roll = _roll(skill, result, ties_succeed)
            assert roll.favour_short == _least_favour(skill, result, ties_succeed), (skill, result)
            expected = result - skill + (0 if ties_succeed else 1)
            assert roll.favour_short == (0 if roll.success else expected)


def test_eight_against_seven_needs_two_when_ties_fail_and_one_when_they_succeed():
    assert _roll(7, 8, False).favour_short == 2
    assert _roll(7, 8, True).favour_short == 1
    # the rules' own example: result 7 against skill 7 fails, and 2 favour gave a pass (1 would do)
    assert _roll(7, 7, False).favour_short == 1


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("ties_succeed", [False, True])
def test_the_words_say_the_favour_the_engine_needs(lang, ties_succeed):
    tr = _tr(lang)
    for skill in range(21):
        for result in range(2, 13):
            roll = _roll(skill, result, ties_succeed)
            outcome, detail = describe_fate_roll(tr, roll)
            need = _least_favour(skill, result, ties_succeed)
            if need == 0:
                assert outcome == tr("Success")
                assert favour_short_text(tr, 1) not in detail and favour_short_text(tr, 2) not in detail
                continue
            assert outcome == tr("Failure")
            assert detail.endswith(" " + favour_short_text(tr, need)), (skill, result, detail)
            assert tr.ngettext(
                "{n} more favour point would have made it a success.",
                "{n} more favour points would have made it a success.",
                need,
            ) == favour_short_text(tr, need)
            assert str(need) in favour_short_text(tr, need)


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "2 more favour points would have made it a success."),
        ("ru", "Ещё 2 очка благосклонности дали бы успех."),
        ("cs", "Další 2 body přízně by přinesly úspěch."),
    ],
)
def test_eight_against_seven_says_two_more_favour(lang, text):
    _, detail = describe_fate_roll(_tr(lang), _roll(7, 8, False))
    assert text in detail
    assert "1" not in detail.split(".")[-2]


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("en", "1 more favour point would have made it a success."),
        ("ru", "Ещё 1 очко благосклонности дало бы успех."),
        ("cs", "Další 1 bod přízně by přinesl úspěch."),
    ],
)
def test_a_failed_tie_says_one_more_favour(lang, text):
    tr = _tr(lang)
    _, detail = describe_fate_roll(tr, _roll(7, 7, False))
    assert tr("A tie fails.") in detail and text in detail
