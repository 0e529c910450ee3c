"""The fight screen's models without a browser: sheets, the encounter plan, the fight state machine wiring,
the duel odds, the simulation and the words of the log."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import engine
from engine.fate.attack import WOLF, Combatant, Policy, generate_monster
from engine.fate.battle import Encounter, run_seed, simulate_battle, simulate_many
from engine.fate.duel import duel_odds, win_chance_by_spend
from webapp.i18n import LANGUAGES, Translator
from webapp.state.app import AppState
from webapp.state.fight import (
    SIDES,
    EncounterPlan,
    FightDesk,
    MonsterSheet,
    monster_from_sheet,
    unique_name,
)
from webapp.words.fight import describe_events, fight_entry_texts, fight_error_text


@pytest.fixture
def app():
    state = AppState()
    hero = state.fate.character
    hero.param.update(name_text="Ada", skill="7", life="12", life_max="12", favour="3", favour_max="3")
    return state


@pytest.fixture
def desk(app):
    return FightDesk(app)


def wolf_vs_ada(desk):
    desk.plan.tap_bench("heroes", "Ada")
    desk.plan.tap_place("heroes", 0, "attacking")
    desk.plan.tap_bench("monsters", "Wolf")
    desk.plan.tap_place("monsters", 0, "attacking")


def typed(run, a, d=(1, 1)):
    run.param.update(manual=True, a1=str(a[0]), a2=str(a[1]), d1=str(d[0]), d2=str(d[1]))


# -- sheets and storage ------------------------------------------------------------------------------------


def test_the_wolf_is_ready_as_an_example(app):
    assert app.monsters.names() == ["Wolf"]
    assert monster_from_sheet(app.monsters.characters[0]) == WOLF


def test_monster_sheet_refuses_life_below_zero_and_keeps_the_text():
    sheet = MonsterSheet()
    sheet.life = "-2"
    sheet.parse()
    assert sheet.errors["life"].code == "range" and sheet.errors["life"].params["low"] == 0
    assert sheet.life == "-2"
    sheet.life, sheet.stoutness = "5", "9"
    sheet.parse()
    assert sheet.errors["stoutness"].code == "rule" and sheet.errors["stoutness"].params["high"] == 4
    with pytest.raises(engine.InputError) as info:
        monster_from_sheet(sheet.to_dict())
    assert info.value.field == "monster.stoutness"


def test_generated_monster_is_the_engines_for_the_seed_and_keeps_its_dice(desk):
    desk.setup.skill_modifier = "2"
    desk.setup.life_dice = 2
    made = desk.generate_monster(seed=77)
    expected = generate_monster(engine.Dice(77), 2, 2, "Monster")
    assert made == expected
    assert desk.generated == (77, made)
    assert desk.monster_form.name_text == "Monster"
    assert monster_from_sheet(desk.monsters.characters[desk.monsters.current]) == expected.monster
    assert desk.generate_monster(seed=78).monster.name == "Monster 2"


def test_a_bad_skill_modifier_is_refused_before_any_dice(desk):
    desk.setup.skill_modifier = "x"
    with pytest.raises(engine.InputError):
        desk.generate_monster(seed=1)
    assert desk.setup.errors["skill_modifier"].code == "type"
    assert desk.monsters.names() == ["Wolf"]


def test_monsters_are_added_edited_deleted_with_unique_names(desk):
    desk.add_wolf()
    desk.new_monster()
    assert desk.monsters.names() == ["Wolf", "Wolf 2", "Monster"]
    desk.monster_form.skill = "11"
    assert desk.monsters.characters[2]["skill"] == "11"
    desk.monsters.select(1)
    desk.delete_monster()
    assert desk.monsters.names() == ["Wolf", "Monster"]
    assert unique_name("Wolf", ["Wolf", "Wolf 2"]) == "Wolf 3"


def test_monsters_are_stored_and_imported_with_the_characters(app, desk):
    desk.add_wolf()
    desk.monster_form.life = "7"
    text = app.characters_json()
    data = json.loads(text)
    assert data["monsters"]["characters"][1]["name"] == "Wolf 2"
    fresh = AppState()
    fresh.load_characters(text)
    assert fresh.monsters.names() == ["Wolf", "Wolf 2"]
    assert fresh.monsters.form.life == "7"
    merged = AppState()
    merged.load_characters(text, merge=True)
    assert merged.monsters.names() == ["Wolf", "Wolf 2"]  # the Wolf already here is not added twice
    old = AppState()  # a file written before monsters existed still loads
    old.load_characters(json.dumps({k: v for k, v in data.items() if k != "monsters"}))
    assert old.monsters.names() == ["Wolf"]


# -- the plan ------------------------------------------------------------------------------------------------


def test_taps_move_creatures_between_places():
    plan = EncounterPlan()
    plan.tap_bench("heroes", "Ada")
    plan.tap_place("heroes", 0, "defending")
    assert plan.heroes == [[None, "Ada"]]
    plan.add_formation("heroes")
    plan.tap_bench("heroes", "Bo")
    plan.tap_place("heroes", 1, "attacking")
    # tap Ada, then Bo's place: they swap
    plan.tap_place("heroes", 0, "defending")
    assert plan.selected == ("place", "heroes", 0, "defending")
    plan.tap_place("heroes", 1, "attacking")
    assert plan.heroes == [[None, "Bo"], ["Ada", None]] and plan.selected is None
    # a bench creature tapped onto an occupied place sends the occupant back to the bench
    plan.tap_bench("heroes", "Cy")
    plan.tap_place("heroes", 1, "attacking")
    assert plan.placed("heroes") == ["Bo", "Cy"]
    plan.tap_place("heroes", 1, "attacking")
    plan.take_out_selected()
    assert plan.placed("heroes") == ["Bo"]
    plan.remove_formation("heroes")
    assert plan.heroes == [[None, "Bo"]]
    plan.remove_formation("heroes")  # the last formation stays
    assert plan.heroes == [[None, "Bo"]]
    # a tap on the other side's place only selects there
    plan.tap_bench("heroes", "Ada")
    plan.tap_place("monsters", 0, "attacking")
    assert plan.monsters == [[None, None]] and plan.selected is None


def test_renamed_or_deleted_creatures_leave_the_plan(app, desk):
    wolf_vs_ada(desk)
    app.fate.character.name_text = "Adela"
    assert desk.plan.heroes == [[None, None]]
    assert desk.bench("heroes") == ["Adela"]
    assert desk.encounter_error.field == "heroes"


def test_balance_and_repairing_are_shown(app, desk):
    wolf_vs_ada(desk)
    assert desk.encounter_error is None
    assert (desk.balance.monsters_life, desk.balance.heroes_max_life, desk.balance.verdict) == (9, 12, "even")
    assert desk.pairing == []
    desk.add_wolf()
    desk.plan.add_formation("monsters")
    desk.plan.tap_bench("monsters", "Wolf 2")
    desk.plan.tap_place("monsters", 1, "attacking")
    assert desk.balance.verdict == "hard"  # 18 against 12
    assert [(e["creature"], e["to"], e["formation"]) for e in desk.pairing] == [("Wolf 2", "attacking", 1)]
    assert desk.paired["monsters"] == [[["Wolf", "Wolf 2"], []]]
    tr = Translator(lang="en")
    assert "the monsters have more formations than the heroes" in describe_events(tr, desk.pairing, desk.sides())[0]


def test_an_empty_formation_is_refused_with_a_message_in_each_language(desk):
    wolf_vs_ada(desk)
    desk.plan.add_formation("heroes")
    error = desk.encounter_error
    assert error.field == "formations.heroes[1]" and error.params["formation"] == 2
    texts = {lang: fight_error_text(Translator(lang=lang), error) for lang in LANGUAGES}
    assert texts["en"] == "Formation 2 of the heroes is empty: put a creature in it or remove it."
    assert len(set(texts.values())) == 3 and all("2" in t for t in texts.values())
    with pytest.raises(engine.InputError):
        desk.start_fight()
    assert desk.plan.placed("heroes") == ["Ada"]  # nothing entered is lost


def test_a_fallen_creature_cannot_enter_the_fight(app, desk):
    wolf_vs_ada(desk)
    app.fate.character.life = "0"
    assert desk.encounter_error.code == "rule"
    assert "Ada" in fight_error_text(Translator(lang="cs"), desk.encounter_error)


# -- the duel odds ---------------------------------------------------------------------------------------------


def test_duel_odds_are_the_engines_and_follow_the_hero(app, desk):
    ada = Combatant.hero("Ada", 12, 7, 3)
    assert desk.odds == duel_odds(ada, WOLF, max_rounds=30)
    assert desk.by_spend == {}  # worked out only for its chart, once asked for
    desk.spend_odds = True
    assert desk.by_spend == win_chance_by_spend(ada, WOLF)
    before = desk.odds.p_hero_wins
    app.fate.character.skill = "9"
    assert desk.odds.p_hero_wins > before
    desk.setup.hero_attack = "1"
    assert desk.odds.p_hero_wins == duel_odds(Combatant.hero("Ada", 12, 9, 3), WOLF, Policy(1)).p_hero_wins


def test_duel_spending_more_than_held_is_refused_at_its_field(app, desk):
    desk.setup.hero_attack = "4"
    assert desk.odds is None
    assert desk.setup.errors["hero_attack"].params["held"] == 3
    assert fight_error_text(Translator(lang="ru"), desk.odds_error) == "Есть только 3 очка."
    assert desk.setup.hero_attack == "4"
    app.fate.character.param.update(favour_max="5", favour="5")
    assert desk.odds is not None and "hero_attack" not in desk.setup.errors


# -- the fight, step by step -------------------------------------------------------------------------------------


def test_three_attack_prompts_then_the_turn_passes(app, desk):
    wolf_vs_ada(desk)
    desk.start_fight()
    run = desk.run
    na = run.next_action()
    assert (na.actor, na.attack_number, na.can_recover) == ("Ada", 1, True)
    typed(run, (3, 3))  # 13 against 10: 3 damage of 9, a third
    run.attack()
    na = run.next_action()
    assert (na.actor, na.attack_number, na.targets, na.can_recover) == ("Ada", 2, ("Wolf",), False)
    assert run.last_attack()["damage"] == 3
    typed(run, (3, 3))  # 3 of 6: half
    run.attack()
    assert run.next_action().attack_number == 3
    tr = Translator(lang="en")
    inputs, result = fight_entry_texts(tr, run.last)
    assert "attack 2" in inputs and "A third attack, the last: the hit took 3 of 6 life, at least half." in result
    with pytest.raises(engine.RuleError):
        run.recover()  # not in the middle of a chain
    typed(run, (1, 1))  # 9 against 10: parried
    run.attack()
    na = run.next_action()
    assert (na.actor, na.side, na.attack_number) == ("Wolf", "monsters", 1)
    assert run.state.creature("Wolf").life == 3
    assert len(app.rolls.log.entries) == 3


def test_points_are_spent_and_more_than_held_is_refused(app, desk):
    wolf_vs_ada(desk)
    desk.start_fight()
    run = desk.run
    typed(run, (1, 1))
    run.attack_points = "4"
    with pytest.raises(engine.RuleError):
        run.attack()
    assert run.errors["attack_points"].params["held"] == 3
    assert run.attack_points == "4" and run.steps == [] and app.rolls.log.entries == []
    assert fight_error_text(Translator(lang="en"), run.errors["attack_points"]) == "Only 3 points are held."
    run.attack_points = "2"
    run.defence_points = "1"
    run.attack()  # 2+7+2 = 11 against 2+8+1 = 11: parried, points gone all the same
    assert run.state.creature("Ada").points == 1
    assert run.state.creature("Wolf").points == 3
    assert run.attack_points == "0" and run.errors == {}
    result = fight_entry_texts(Translator(lang="en"), run.last)[1]
    assert "Ada spends 2 favour (1 left)." in result and "Wolf spends 1 stoutness (3 left)." in result


def test_bad_typed_dice_are_marked_and_kept(desk):
    wolf_vs_ada(desk)
    desk.start_fight()
    typed(desk.run, (7, 1))
    with pytest.raises(engine.InputError):
        desk.run.attack()
    assert desk.run.errors["a1"].params == {"value": 7, "low": 1, "high": 6} or desk.run.errors["a1"].code == "range"
    assert desk.run.a1 == "7" and desk.run.steps == []


def test_recovery_and_the_defending_positions_rest(app, desk):
    app.fate.character.life = "5"
    desk.plan.tap_bench("heroes", "Ada")
    desk.plan.tap_place("heroes", 0, "attacking")
    desk.add_wolf()
    desk.plan.tap_bench("monsters", "Wolf")
    desk.plan.tap_place("monsters", 0, "attacking")
    desk.plan.tap_bench("monsters", "Wolf 2")
    desk.plan.tap_place("monsters", 0, "defending")
    desk.monsters.select(1)
    desk.monster_form.life = "4"  # Wolf 2 is hurt: 4 of 9
    desk.start_fight()
    run = desk.run
    na = run.next_action()
    assert na.targets == ("Wolf", "Wolf 2") and na.halved_targets == ("Wolf 2",)
    typed(run, (6, 6))
    run.target = "Wolf 2"
    run.attack()  # 19 // 2 = 9 against 10: parried
    event = next(e for e in run.last.roll["events"] if e["event"] == "attack")
    assert event["halved"] and event["attack_total"] == 9 and not event["hit"]
    # the monsters' turn began: Wolf 2 in the defending position rested
    assert run.state.creature("Wolf 2").life == 7
    assert any(e["event"] == "regen" and e["creature"] == "Wolf 2" for e in run.last.roll["events"])
    typed(run, (1, 1), (6, 6))
    run.attack()  # Wolf: 10 against 19: parried
    typed(run, (4, 2))
    run.attack_points = "1"
    run.recover()  # Ada: 4 + 2 + 1 = 7, up to her maximum 12
    assert run.state.creature("Ada").life == 12 and run.state.creature("Ada").points == 2
    text = " ".join(describe_events(Translator(lang="en"), run.last.roll["events"]))
    assert "Ada recovers: 4+2, points 1 = 7; life 5 → 12." in text


def test_a_fallen_creature_leaves_its_position_and_the_defender_steps_up(app, desk):
    desk.add_wolf()
    desk.plan.tap_bench("heroes", "Ada")
    desk.plan.tap_place("heroes", 0, "attacking")
    desk.plan.tap_bench("monsters", "Wolf")
    desk.plan.tap_place("monsters", 0, "attacking")
    desk.plan.tap_bench("monsters", "Wolf 2")
    desk.plan.tap_place("monsters", 0, "defending")
    desk.start_fight()
    typed(desk.run, (6, 6))  # 19 against 10: 9 damage, the Wolf falls
    desk.run.attack()
    state = desk.run.state
    assert state.position("Wolf") is None and state.position("Wolf 2") == (0, "attacking")
    text = describe_events(Translator(lang="en"), desk.run.last.roll["events"], desk.sides())
    assert "Wolf falls, struck by Ada, and leaves its position." in text
    assert "Wolf 2 steps up to the attacking position: it stood empty." in text


def test_undo_steps_back_and_leaves_the_log(app, desk):
    wolf_vs_ada(desk)
    desk.start_fight()
    run = desk.run
    first = run.attack(seed=11)
    second = run.attack(seed=12)
    snapshot = run.state
    assert [e.number for e in app.rolls.log.entries] == [first.number, second.number]
    run.undo()
    assert [e.number for e in app.rolls.log.entries] == [first.number]
    assert run.last is first and run.steps == [first.number]
    again = run.attack(seed=12)
    assert run.state == snapshot and again.roll == second.roll
    run.undo()
    run.undo()
    assert run.state == run.fight._history[0][0] and app.rolls.log.entries == []
    with pytest.raises(engine.RuleError):
        run.undo()


def test_a_fight_runs_to_its_end_by_taps(app, desk):
    wolf_vs_ada(desk)
    desk.start_fight()
    seed = 0
    while desk.run.next_action() is not None:
        desk.run.attack(seed=seed)
        seed += 1
    assert desk.run.state.finished and desk.run.state.winner in ("heroes", "monsters")
    with pytest.raises(engine.RuleError) as info:
        desk.run.attack()
    assert fight_error_text(Translator(lang="en"), info.value).startswith("Start the fight first")
    last = fight_entry_texts(Translator(lang="cs"), desk.run.last)[1]
    assert "vítězí v kole" in last


# -- simulation --------------------------------------------------------------------------------------------------


def test_simulation_is_the_engines_and_any_run_opens_as_a_log(desk):
    wolf_vs_ada(desk)
    desk.setup.param.update(runs="200", seed="42", hero_attack="1")
    summary = desk.simulate()
    encounter = desk.encounter()
    assert encounter.policy("Ada") == Policy(1)
    assert summary == simulate_many(encounter, 42, 200)
    desk.sim.run_text = "7"
    log = desk.sim.open_run()
    assert log == simulate_battle(encounter, run_seed(42, 6))["log"]
    for lang in LANGUAGES:
        lines = describe_events(Translator(lang=lang), log, desk.sides())
        assert lines and all(lines)
    desk.sim.run_text = "201"
    with pytest.raises(engine.InputError):
        desk.sim.open_run()
    assert desk.sim.errors["run"].params["high"] == 200


def test_simulation_needs_good_runs_and_seed(desk):
    wolf_vs_ada(desk)
    desk.setup.runs = "0"
    with pytest.raises(engine.InputError):
        desk.simulate()
    assert desk.setup.errors["runs"].code == "range"


# -- words -------------------------------------------------------------------------------------------------------------


def test_every_event_kind_is_described_in_every_language():
    encounter = Encounter.from_dict(
        {
            "heroes": [
                {
                    "name": "Ada",
                    "life": 12,
                    "skill": 7,
                    "favour": 3,
                    "policy": {"attack_spend": 1, "defence_spend": 1, "recover_below": 6, "recover_spend": 1},
                },
                {"name": "Bo", "life": 5, "max_life": 10, "skill": 6},
            ],
            "monsters": [
                {"name": "Wolf", "life": 9, "skill": 8, "stoutness": 4, "policy": {"attack_spend": 1}},
                {"name": "Rat", "life": 6, "skill": 3},
            ],
            "formations": {
                "heroes": [{"attacking": "Ada", "defending": "Bo"}],
                "monsters": [{"attacking": "Wolf"}, {"attacking": "Rat"}],
            },
        }
    )
    kinds = set()
    sides = {"Ada": "heroes", "Bo": "heroes", "Wolf": "monsters", "Rat": "monsters"}
    for seed in range(40):
        log = simulate_battle(encounter, seed)["log"]
        kinds |= {e["event"] for e in log}
        for lang in LANGUAGES:
            lines = describe_events(Translator(lang=lang), log, sides)
            assert all(lines)
            if lang != "en":
                assert not any("attacks" in line or "turn." in line for line in lines)
    assert {"start", "turn", "attack", "spend", "fall", "end", "position", "regen"} <= kinds


def test_life_and_points_after_the_fight_go_back_to_the_sheets(app, desk):
    wolf_vs_ada(desk)
    desk.start_fight()
    typed(desk.run, (3, 3))
    desk.run.attack_points = "1"
    desk.run.attack()  # 3+3+7+1 = 14 against 10: 4 + 1 = 5 damage, a second attack
    assert desk.write_back() == 2
    assert (app.fate.character.life, app.fate.character.favour) == ("12", "2")
    assert (desk.monster_form.life, desk.monster_form.stoutness) == ("4", "4")
    assert app.rosters["fate"].characters[0]["favour"] == "2"
    assert desk.write_back() == 0


NAMES = {"heroes": ["Ada", "Bo", "Cy"], "monsters": ["Wolf", "Rat"]}
TAPS = st.one_of(
    st.tuples(st.just("bench"), st.sampled_from(SIDES), st.integers(0, 2)),
    st.tuples(st.just("place"), st.sampled_from(SIDES), st.integers(0, 3), st.sampled_from(("attacking", "defending"))),
    st.tuples(st.sampled_from(("add", "remove")), st.sampled_from(SIDES)),
    st.tuples(st.just("take_out")),
)


@given(st.lists(TAPS, max_size=40))
def test_taps_never_copy_or_lose_a_creature(taps):
    plan = EncounterPlan()
    for tap in taps:
        if tap[0] == "bench":
            names = [n for n in NAMES[tap[1]] if n not in plan.placed(tap[1])]
            if names:
                plan.tap_bench(tap[1], names[tap[2] % len(names)])
        elif tap[0] == "place":
            k = tap[2] % len(getattr(plan, tap[1]))
            plan.tap_place(tap[1], k, tap[3])
        elif tap[0] == "add":
            plan.add_formation(tap[1])
        elif tap[0] == "remove":
            plan.remove_formation(tap[1])
        else:
            plan.take_out_selected()
        for side in SIDES:
            placed = plan.placed(side)
            assert len(placed) == len(set(placed)) and set(placed) <= set(NAMES[side])
            assert len(getattr(plan, side)) >= 1
            assert all(len(f) == 2 for f in getattr(plan, side))


def test_duels_too_big_to_follow_live_say_so_and_keep_the_fields(app, desk):
    app.fate.character.param.update(life_max="99", life="99")
    desk.monster_form.param.update(life_max="99", life="99")
    assert desk.odds is None and desk.odds_error.params["live"]
    assert "simulation" in fight_error_text(Translator(lang="en"), desk.odds_error)
    assert app.fate.character.life == "99"
    desk.monster_form.life = "20"  # 99 x 20 x 4 = 7920 states: live again
    assert desk.odds is not None
