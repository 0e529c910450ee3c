"""Fate & Doom's outputs byte for byte against the golden fixtures written by ``fate_golden.py``:
the command line's JSON (attacks under each halving, duels, seeded battles with their whole
logs, summaries, monsters) and the event logs of fights with dice typed in."""

from __future__ import annotations

import pytest
from fate_golden import CLI_CASES, ENCOUNTERS, FIGHT_CASES, FIXTURES, dumps, encounter_path, fight_case_text


def golden(name: str) -> str:
    return (FIXTURES / f"{name}.json").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(ENCOUNTERS))
def test_the_encounter_files_are_the_cases(name):
    assert encounter_path(name).read_text(encoding="utf-8") == dumps(ENCOUNTERS[name])


@pytest.mark.parametrize("name", sorted(CLI_CASES))
def test_the_command_line_gives_the_golden_json(name):
    assert CLI_CASES[name]() == golden(name)


@pytest.mark.parametrize("name", sorted(FIGHT_CASES))
def test_a_fight_gives_the_golden_events(name):
    assert fight_case_text(name) == golden(name)
