"""The fight screen's models byte for byte against the golden fixtures written by ``fight_golden.py``:
the events each fight step keeps in the roll log, and every golden fight log in words, in each
language."""

from __future__ import annotations

from fight_golden import RUN_PATH, WORDS_PATH, web_run_text, words_text


def test_a_fight_run_keeps_the_golden_events():
    assert web_run_text() == RUN_PATH.read_text(encoding="utf-8")


def test_the_golden_logs_in_words_in_every_language():
    assert words_text() == WORDS_PATH.read_text(encoding="utf-8")
