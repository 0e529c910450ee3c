"""The golden outputs of Fate & Doom: the command line's JSON and the events of fights, written once.

``python tests/engine/fate_golden.py`` writes ``tests/engine/fixtures/fate/``; run it only when an
output changes on purpose. ``tests/engine/test_fate_golden.py`` (the command line, the fights'
event logs) and ``tests/webapp/test_fight_golden.py`` (the events a fight run keeps in the roll
log, and their words in every language) check that today's code gives the same bytes.

Each case is a name and a way to make its text, through public names only (the command line's
arguments, ``engine.Encounter`` and ``engine.Fight``), so that the cases outlive the modules'
layout.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "fate"
EXAMPLE = ROOT / "examples" / "wolf_encounter.json"

#: Encounters written into the fixtures for the command line (``--encounter`` reads a file).
ENCOUNTERS: dict[str, dict[str, Any]] = {
    # a defender behind each line: rest (regen), halving against it, the defender stepping up
    "front_and_back": {
        "heroes": [
            {
                "name": "Ada",
                "life": 12,
                "skill": 7,
                "favour": 3,
                "policy": {"attack_spend": 1, "defence_spend": 1, "recover_below": 6, "recover_spend": 1},
            },
            {"name": "Bo", "life": 5, "max_life": 10, "skill": 6, "policy": {"target": "weakest"}},
        ],
        "monsters": [
            {"name": "Wolf", "life": 9, "skill": 8, "stoutness": 4, "policy": {"attack_spend": 1}},
            {"name": "Cub", "life": 4, "max_life": 8, "skill": 3, "policy": {"target": "weakest"}},
        ],
        "formations": {
            "heroes": [{"attacking": "Ada", "defending": "Bo"}],
            "monsters": [{"attacking": "Wolf", "defending": "Cub"}],
        },
    },
    # more formations on one side: broken up at the start and after a fall (moves, waits)
    "uneven": {
        "heroes": [
            {"name": "Ada", "life": 12, "skill": 9, "policy": {"target": "weakest"}},
            {"name": "Bo", "life": 10, "skill": 6},
            {"name": "Cyril", "life": 8, "skill": 5},
        ],
        "monsters": [
            {"name": "W0", "life": 3, "skill": 1},
            {"name": "W1", "life": 9, "skill": 4},
        ],
    },
    # a kill inside a chain (after_kill next on the command line)
    "two_wolves": {
        "heroes": [{"name": "Ada", "life": 12, "skill": 8}],
        "monsters": [{"name": "W0", "life": 3, "skill": 1}, {"name": "W1", "life": 9, "skill": 1}],
    },
    # two long-lived creatures: the round limit ends it
    "round_limit": {
        "heroes": [{"name": "Ada", "life": 99, "skill": 7}],
        "monsters": [{"name": "Ogre", "life": 99, "skill": 7}],
        "options": {"max_rounds": 3},
    },
}


def encounter_path(name: str) -> Path:
    return FIXTURES / "encounters" / f"{name}.json"


def _cli(*argv: str) -> Callable[[], str]:
    def run() -> str:
        from engine.cli import main

        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = main(list(argv))
        assert status == 0, argv
        return out.getvalue()

    return run


def _battle(name: str, seed: int, *extra: str) -> Callable[[], str]:
    path = EXAMPLE if name == "example" else encounter_path(name)
    return _cli("simulate", "fate-battle", "--encounter", str(path), "--seed", str(seed), *extra)


DUEL = (
    "odds",
    "fate-duel",
    *("--hero-life", "12", "--hero-skill", "7", "--hero-favour", "3"),
    *("--monster-life", "9", "--monster-skill", "8", "--monster-stoutness", "4"),
)

#: name -> a function giving the command line's stdout.
CLI_CASES: dict[str, Callable[[], str]] = {
    "attack": _cli("odds", "fate-attack", "--attack-skill", "7", "--defence-skill", "8", "--attack-points", "1"),
    **{
        f"attack_halving_{h}": _cli(
            "odds",
            "fate-attack",
            *("--attack-skill", "9", "--defence-skill", "6", "--attack-points", "2"),
            *("--defender-in-defence", "--halving", h),
        )
        for h in ("roll", "dice", "damage")
    },
    "attack_one_plus": _cli(
        "odds", "fate-attack", "--attack-skill", "8", "--defence-skill", "7", "--damage-rule", "one_plus"
    ),
    "duel": _cli(*DUEL, "--hero-spend", "1", "--monster-spend", "1"),
    "duel_monster_first": _cli(
        *DUEL, "--first", "monster", "--damage-rule", "one_plus", "--max-rounds", "5", "--hero-defence-spend", "1"
    ),
    "duel_no_rounds": _cli(*DUEL, "--max-rounds", "0", "--hero-name", "Ada", "--monster-name", "Wolf"),
    "battle_example_5": _battle("example", 5),
    "battle_example_42": _battle("example", 42),
    "battle_example_dice_7": _battle("example", 7, "--halving", "dice"),
    "battle_front_and_back_roll_3": _battle("front_and_back", 3),
    "battle_front_and_back_dice_3": _battle("front_and_back", 3, "--halving", "dice"),
    "battle_front_and_back_damage_3": _battle("front_and_back", 3, "--halving", "damage"),
    "battle_front_and_back_damage_8": _battle("front_and_back", 8, "--halving", "damage"),
    "battle_uneven_1": _battle("uneven", 1),
    "battle_uneven_next_2": _battle("uneven", 2, "--after-kill", "next"),
    "battle_two_wolves_end_4": _battle("two_wolves", 4, "--after-kill", "end"),
    "battle_two_wolves_next_4": _battle("two_wolves", 4, "--after-kill", "next"),
    "battle_two_wolves_next_9": _battle("two_wolves", 9, "--after-kill", "next"),
    "battle_round_limit": _battle("round_limit", 1),
    "battle_example_summary": _battle("example", 5, "--runs", "40"),
    "battle_front_and_back_summary": _battle("front_and_back", 6, "--runs", "25", "--halving", "damage"),
    "monster": _cli("monster", "--seed", "42", "--skill-modifier", "2"),
    "monster_two_dice": _cli("monster", "--seed", "7", "--life-dice", "2", "--name", "Troll"),
}


# -- fights with dice typed in: every kind of event, in a known order --------------------------------------


def _steps_fight(encounter: dict[str, Any], steps: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    from engine import Encounter, Fight

    fight = Fight(Encounter.from_dict(encounter))
    for action, kwargs in steps:
        getattr(fight, action)(**kwargs)
    return fight.log


def _typed(a: tuple[int, int], d: tuple[int, int] = (1, 1), **kw: Any) -> tuple[str, dict[str, Any]]:
    return ("attack", {"attack_faces": a, "defence_faces": d, **kw})


FIGHT_CASES: dict[str, tuple[dict[str, Any], list[tuple[str, dict[str, Any]]]]] = {
    # a chain of three attacks, points spent on both sides, a parry
    "fight_chain": (
        {
            "heroes": [{"name": "Ada", "life": 12, "skill": 7, "favour": 3}],
            "monsters": [{"name": "Ogre", "life": 30, "skill": 2, "stoutness": 2}],
        },
        [
            _typed((3, 3), (1, 1), attack_points=1, defence_points=1),
            _typed((5, 5), (1, 1)),
            _typed((1, 1), (3, 3)),
            _typed((1, 1), (6, 6)),
        ],
    ),
    # the defending position: halved, parried by halving, rest, recovery with points, the defender steps up
    "fight_positions": (
        ENCOUNTERS["front_and_back"],
        [
            _typed((1, 1), (1, 1), target="Cub"),
            _typed((3, 3), (1, 1)),
            _typed((1, 1), (6, 6)),
            ("recover", {"faces": (4, 2), "points": 1}),
            _typed((6, 6), (1, 1)),
            _typed((6, 6), (1, 1)),
        ],
    ),
    # a kill in the chain going on to the next enemy; a creature moved in its own side's turn waits
    "fight_after_kill": (
        {**ENCOUNTERS["uneven"], "options": {"after_kill": "next"}},
        [_typed((6, 6), (1, 1), target="W0"), _typed((1, 1), (1, 1)), _typed((6, 6), (1, 1))],
    ),
    "fight_waits": (
        {
            "heroes": [{"name": "Ada", "life": 12, "skill": 7}, {"name": "Bo", "life": 10, "skill": 6}],
            "monsters": [{"name": "W0", "life": 2, "skill": 1}, {"name": "W1", "life": 9, "skill": 1}],
        },
        [_typed((6, 6)), _typed((1, 1), (6, 6)), _typed((6, 6))],
    ),
    **{
        f"fight_halving_{h}": (
            {**ENCOUNTERS["front_and_back"], "options": {"halving": h}},
            [_typed((6, 6), (1, 1), target="Cub", attack_points=1), _typed((2, 1), (1, 1))],
        )
        for h in ("roll", "dice", "damage")
    },
    "fight_one_plus_monsters_first": (
        {
            "heroes": [{"name": "Ada", "life": 12, "skill": 7}],
            "monsters": [{"name": "Wolf", "life": 9, "skill": 8, "stoutness": 4}],
            "options": {"damage_rule": "one_plus", "first": "monsters", "halving": "dice"},
        },
        [_typed((3, 4), (2, 2), attack_points=2), _typed((1, 1), (6, 6)), _typed((6, 6), (1, 1))],
    ),
}


def dumps(value: Any) -> str:
    """The fixtures' JSON: keys in the order written, so that any change of order shows."""
    return json.dumps(value, ensure_ascii=False, indent=1) + "\n"


def fight_case_text(name: str) -> str:
    return dumps(_steps_fight(*FIGHT_CASES[name]))


def write_encounters() -> None:
    (FIXTURES / "encounters").mkdir(parents=True, exist_ok=True)
    for name, data in ENCOUNTERS.items():
        encounter_path(name).write_text(dumps(data), encoding="utf-8")


def main() -> None:
    write_encounters()
    for name, make in CLI_CASES.items():
        (FIXTURES / f"{name}.json").write_text(make(), encoding="utf-8")
    for name in FIGHT_CASES:
        (FIXTURES / f"{name}.json").write_text(fight_case_text(name), encoding="utf-8")


if __name__ == "__main__":
    main()
