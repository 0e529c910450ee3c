"""The golden outputs of the fight screen: the events a fight run keeps in the roll log, and the words.

``python tests/webapp/fight_golden.py`` writes ``tests/engine/fixtures/fate/webapp_run.json`` (each
step's check, seed and events, as the roll log holds them) and ``words.json`` (every golden fight
log in each language, as the fight screen shows it); run it only when an output changes on
purpose. ``tests/webapp/test_fight_golden.py`` checks that today's code gives the same bytes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "engine"))

from fate_golden import CLI_CASES, ENCOUNTERS, EXAMPLE, FIGHT_CASES, FIXTURES, _steps_fight, dumps  # noqa: E402

RUN_PATH = FIXTURES / "webapp_run.json"
WORDS_PATH = FIXTURES / "words.json"


def _typed(run: Any, a: tuple[int, int], d: tuple[int, int] = (1, 1)) -> None:
    run.param.update(manual=True, a1=str(a[0]), a2=str(a[1]), d1=str(d[0]), d2=str(d[1]))


def web_run() -> tuple[list[Any], dict[str, str], list[dict[str, Any]]]:
    """A fight on the fight screen's models: seeded and typed attacks, points, a recovery, a fall.

    Returns the log entries of its steps, the sides of its creatures and the re-pairing events."""
    from webapp.state.app import AppState
    from webapp.state.fight import FightDesk

    state = AppState()
    state.fate.character.param.update(name_text="Ada", skill="9", life="30", life_max="30", favour="3", favour_max="3")
    desk = FightDesk(state)
    desk.add_wolf()
    desk.add_wolf()
    desk.plan.tap_bench("heroes", "Ada")
    desk.plan.tap_place("heroes", 0, "attacking")
    desk.plan.tap_bench("monsters", "Wolf")
    desk.plan.tap_place("monsters", 0, "attacking")
    desk.plan.tap_bench("monsters", "Wolf 2")
    desk.plan.tap_place("monsters", 0, "defending")
    desk.plan.tap_bench("monsters", "Wolf 3")
    desk.plan.add_formation("monsters")
    desk.plan.tap_place("monsters", 1, "attacking")
    desk.start_fight()
    run = desk.run
    pairing = list(desk.pairing)
    entries = []
    run.attack_points = "1"
    entries.append(run.attack(seed=11))
    seed = 20
    while not run.fight.finished and len(entries) < 40:
        na = run.next_action()
        if na.side == "heroes" and na.can_recover and run.state.creature("Ada").life < 15:
            _typed(run, (3, 2))
            run.attack_points = "1" if run.state.creature("Ada").points else "0"
            entries.append(run.recover())
            run.manual = False
        elif na.side == "heroes" and len(entries) % 4 == 0 and "Wolf 2" in na.targets:
            _typed(run, (6, 6), (1, 1))
            run.param.update(target="Wolf 2", attack_points="2" if run.state.creature("Ada").points >= 2 else "0")
            entries.append(run.attack())
            run.manual = False
        else:
            if run.state.creature(na.actor).points:
                run.attack_points = "1"
            entries.append(run.attack(seed=seed))
            seed += 1
    return entries, desk.sides(), pairing


def web_run_text() -> str:
    entries, _, pairing = web_run()
    steps = [{"check": e.check, "seed": e.seed, "roll": e.roll} for e in entries]
    return dumps({"pairing": pairing, "steps": steps})


def _sides(encounter: dict[str, Any]) -> dict[str, str]:
    return {c["name"]: side for side in ("heroes", "monsters") for c in encounter[side]}


def golden_logs() -> dict[str, tuple[list[dict[str, Any]], dict[str, str]]]:
    """Every golden fight log with the sides of its creatures."""
    encounters = {**ENCOUNTERS, "example": json.loads(EXAMPLE.read_text(encoding="utf-8"))}
    logs = {}
    for name, make in CLI_CASES.items():
        if name.startswith("battle_") and "summary" not in name:
            which = next(k for k in sorted(encounters, key=len, reverse=True) if name.startswith(f"battle_{k}"))
            logs[name] = (json.loads(make())["log"], _sides(encounters[which]))
    for name, (encounter, steps) in FIGHT_CASES.items():
        logs[name] = (_steps_fight(encounter, steps), _sides(encounter))
    return logs


def words_text() -> str:
    from webapp.i18n import LANGUAGES, Translator
    from webapp.words.fight import describe_events, fight_entry_texts

    out: dict[str, Any] = {}
    logs = golden_logs()
    entries, sides, pairing = web_run()
    for lang in sorted(LANGUAGES):
        tr = Translator(lang=lang)
        words: dict[str, Any] = {}
        for name, (log, log_sides) in logs.items():
            words[name] = describe_events(tr, [e for e in log if e["event"] != "round_end"], log_sides)
            words[f"{name}_without_sides"] = describe_events(tr, log)
        words["webapp_pairing"] = describe_events(tr, pairing, sides)
        words["webapp_entries"] = [list(fight_entry_texts(tr, e)) for e in entries]
        out[lang] = words
    return dumps(out)


def main() -> None:
    RUN_PATH.write_text(web_run_text(), encoding="utf-8")
    WORDS_PATH.write_text(words_text(), encoding="utf-8")


if __name__ == "__main__":
    main()
