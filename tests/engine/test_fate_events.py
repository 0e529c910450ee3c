"""The fight's events as frozen records: their JSON is the golden logs', and reads back into the same records."""

from __future__ import annotations

import dataclasses
import json

import pytest
from fate_golden import CLI_CASES, FIGHT_CASES, FIXTURES, _steps_fight

from engine import Encounter, Fight, InputError, fate
from engine.fate import events as ev


def golden_logs() -> list[list[dict]]:
    logs = []
    for name in CLI_CASES:
        data = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))
        if isinstance(data, dict) and "log" in data:
            logs.append(data["log"])
    logs += [json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8")) for name in FIGHT_CASES]
    return logs


def test_every_golden_event_reads_back_into_a_record_whose_json_is_the_same():
    kinds = set()
    for log in golden_logs():
        for data in log:
            event = ev.read_event(data)
            assert type(event) is ev.EVENTS[data["event"]]
            assert json.dumps(event.to_dict()) == json.dumps(data)  # the same keys in the same order
            assert ev.read_event(event) is event
            kinds.add(data["event"])
    assert kinds == set(ev.EVENTS)  # the golden logs hold every kind of event


@pytest.mark.parametrize("name", sorted(FIGHT_CASES))
def test_a_fights_records_are_its_log(name):
    encounter, steps = FIGHT_CASES[name]
    fight = Fight(Encounter.from_dict(encounter))
    for action, kwargs in steps:
        getattr(fight, action)(**kwargs)
    assert all(isinstance(e, tuple(ev.EVENTS.values())) for e in fight.events)
    assert [e.to_dict() for e in fight.events] == fight.log == _steps_fight(encounter, steps)
    assert ev.read_events(fight.log) == fight.events


def test_the_log_follows_undo():
    encounter, steps = FIGHT_CASES["fight_chain"]
    fight = Fight(Encounter.from_dict(encounter))
    start = fight.log
    fight.attack(**steps[0][1])
    assert len(fight.log) > len(start)
    fight.undo()
    assert fight.log == start and [e.to_dict() for e in fight.events] == start
    fight.attack(**steps[0][1])
    fight.attack(**steps[1][1])
    assert fight.log == _steps_fight(encounter, steps[:2])


def test_events_are_frozen_and_slotted():
    event = ev.Fall("Wolf", "Ada")
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.creature = "Ada"  # type: ignore[misc]
    assert not hasattr(event, "__dict__")
    assert ev.Spend("Ada", 1, "favour", "attack", 2).to_dict() == {
        "event": "spend",
        "creature": "Ada",
        "points": 1,
        "kind": "favour",
        "for": "attack",
        "left": 2,
    }


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"event": "dance"}, "choice"),
        ("attack", "choice"),
        ({"event": "fall", "creature": "Wolf"}, "format"),
        ({"event": "attack", "round": 1}, "format"),
        ({"event": "start", "balance": {"monsters_life": 9, "heroes_max_life": 0, "verdict": "easy"}}, "format"),
    ],
)
def test_a_bad_event_is_refused_with_an_input_error(data, code):
    with pytest.raises(InputError) as info:
        ev.read_event(data)
    assert info.value.code == code and info.value.field == "event"
    with pytest.raises(InputError):
        ev.read_events(data)


def test_the_package_keeps_the_skill_checks_names():
    check = fate.FateCheck(7, 2)
    assert fate.odds(check).p_success == fate.check.odds(check).p_success
    assert fate.roll(check, 5) == fate.check.roll(check, 5)
    assert fate.FAVOUR_RANGE == (0, 30) and fate.TWO_D6.total == 36
    assert fate.attack.attack is not None and fate.battle.Fight is Fight and fate.duel.duel_odds is not None


def test_the_package_imports_downwards_only():
    """check <- attack <- duel, events <- battle <- cli: each module imports only those below it,
    and only at the top of the module."""
    import ast
    from pathlib import Path

    order = {"check": 0, "attack": 1, "duel": 2, "events": 2, "battle": 3, "cli": 4}
    root = Path(fate.__file__).parent
    assert {p.stem for p in root.glob("*.py")} == {*order, "__init__"}
    for name, level in order.items():
        tree = ast.parse((root / f"{name}.py").read_text(encoding="utf-8"))
        top = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                assert id(node) in top, f"{name}.py imports .{node.module} inside a function"
                assert order[node.module] < level, f"{name}.py imports .{node.module}, which is not below it"
