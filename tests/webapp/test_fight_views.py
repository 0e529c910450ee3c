"""The fight screen's views without a browser: what a tap shows, in each language, and that names stay text."""

from __future__ import annotations

import pytest
from worker import in_the_worker

from webapp.views.common import NumberInput
from webapp.views.fight import FightView
from webapp.views.shell import FateScreens, KostkaApp
from webapp.words.log import log_rows

XSS = '<img src=x onerror="alert(1)">'


@pytest.fixture
def app():
    app = KostkaApp()
    app.state.fate.character.name_text = "Ada"
    return app


@pytest.fixture
def view(app):
    screens = app.view_of("fate")
    assert isinstance(screens, FateScreens)
    screens.switch.value = "fight"
    assert isinstance(screens.fight_view, FightView)
    assert screens.fight_place.parts == [screens.fight_view.__panel__()] and screens.fight_place.visible
    assert not screens.check_place.visible
    return screens.fight_view


def tap(view, side, name, k=0, pos="attacking"):
    plan = view.desk.plan
    plan.tap_bench(side, name)
    plan.tap_place(side, k, pos)


def labels_in_error(view):
    return [f"{w.label} — {w.error}" for w in view._layout.select(NumberInput) if w.error]


def test_the_fate_screen_still_offers_the_skill_check(app):
    screens = app.view_of("fate")
    assert screens.body.objects == [screens.check_place]  # the fight is made when first opened
    assert screens.check_place.parts[0] == screens.check_view.__panel__()  # (its share panel under it)
    assert screens.roll_button.label == "Roll Skill"  # the check's parts are reachable as before
    app.tr.lang = "cs"
    assert list(screens.switch.options) == ["Zkouška dovednosti", "Boj"]


def test_places_are_buttons_relabelled_by_taps(view):
    board = view.board
    assert board.waiting("heroes") == ["Ada"]
    board.press("bench:heroes:Ada")
    assert board.benches[0]["selected"] == "Ada" and board.ack == 1  # each tap is answered
    board.press("place:heroes:0:attacking")
    assert board.place("heroes", 0, "attacking")["name"] == "Ada"
    assert board.waiting("heroes") == []
    view.desk.plan.tap_bench("monsters", "Wolf")
    assert board.benches[1]["selected"] == "Wolf"
    view.desk.plan.tap_place("monsters", 0, "defending")
    assert board.place("monsters", 0, "defending")["name"] == "Wolf"
    assert board.place("monsters", 0, "attacking")["name"] == "empty"
    view.desk.plan.add_formation("heroes")
    assert board.place("monsters", 1, "attacking") == {"name": "", "selected": False, "hidden": True}
    assert "Formation 2 of the heroes is empty" in view.encounter_status.object
    assert board.heads == ["Hero defending", "Hero attacking", "Monster attacking", "Monster defending"]


def test_the_formations_buttons_are_drawn_by_the_board_in_the_language_and_act_when_tapped(app, view):
    """The buttons under the formations are the board's own (no Bokeh button each): named in the
    language shown; a tap adds or removes a formation or takes the chosen creature out, and is
    answered; a key the board does not know changes nothing."""
    board = view.board
    labels = {a["key"]: a["label"] for a in board.actions}
    assert labels == {
        "add:heroes": "Add a hero formation",
        "remove:heroes": "Remove the last hero formation",
        "add:monsters": "Add a monster formation",
        "remove:monsters": "Remove the last monster formation",
        "take-out": "Take out of the encounter",
    }
    board.press("act:add:heroes")
    assert len(board.lines) == 2 and board.ack == 1
    board.press("bench:heroes:Ada")
    board.press("place:heroes:1:attacking")
    assert board.place("heroes", 1, "attacking")["name"] == "Ada"
    board.press("place:heroes:1:attacking")  # Ada chosen where she stands…
    board.press("act:take-out")  # …and taken out: back on the bench
    assert board.waiting("heroes") == ["Ada"] and board.ack == 5
    board.press("act:remove:heroes")
    assert len(board.lines) == 1
    board.press("act:nonsense")
    assert len(board.lines) == 1 and board.ack == 7
    app.tr.lang = "ru"
    assert {a["key"]: a["label"] for a in board.actions}["add:monsters"] == "Добавить построение монстров"
    assert all(isinstance(a["label"], str) and "<" not in a["label"] for a in board.actions)


def test_a_tap_the_board_cannot_read_changes_nothing_and_is_answered(view):
    board = view.board
    before = (board.benches, board.lines)
    for what in ("bench:heroes", "place:heroes:x:attacking", "place:heroes:0", "nonsense", ""):
        board.press(what)
        assert board.ack == int(board.tap.partition(":")[0])
    assert (board.benches, board.lines) == before
    board.press("place:heroes:7:attacking")  # no such formation: told, not crashed
    assert board.lines == before[1]


def test_a_name_with_markup_or_a_colon_stays_a_name_on_the_board(app, view):
    app.state.fate.character.name_text = XSS + ":2"
    board = view.board
    assert board.waiting("heroes") == [XSS + ":2"]
    board.press(f"bench:heroes:{XSS}:2")
    board.press("place:heroes:0:attacking")
    assert board.place("heroes", 0, "attacking")["name"] == XSS + ":2"


def test_balance_repairing_and_odds_are_shown_in_each_language(app, view):
    view.desk.add_wolf()
    tap(view, "heroes", "Ada")
    tap(view, "monsters", "Wolf")
    view.desk.plan.add_formation("monsters")
    tap(view, "monsters", "Wolf 2", k=1)
    html = view.encounter_status.object
    assert "ratio 1.50" in html and 'role="meter"' in html
    assert ">the monster is favoured<" in html  # the duel's 30.2%, not the lives' "hard"
    assert "Wolf 2 joins the attacking position of formation 1" in html
    assert "the hero wins" in view.odds_readout.object
    app.tr.lang = "ru"
    assert ">у монстра перевес<" in view.encounter_status.object
    assert "Волк 2 встаёт в атакующую позицию построения 1" in view.encounter_status.object  # the Wolf named in Russian
    assert "герой побеждает" in view.odds_readout.object
    assert view.life_chart is None and view.desk.by_spend == {}  # folded (and not made) until asked for
    view.charts_fold.toggle.clicks += 1
    assert view.charts_fold.toggle.name == "Скрыть графики"  # and folded again by the same button
    assert [o.object for o in view.charts_fold.content] == [view.life_chart.figure, view.spend_chart.figure]
    assert list(view.desk.by_spend) == [0, 1, 2, 3]  # worked out while the charts are open
    assert list(view.spend_chart.source.data["p"]) == [float(p) for p in view.desk.by_spend.values()]
    assert view.life_chart.figure.xaxis.axis_label == "Жизнь в конце боя"
    assert view.spend_chart.figure.yaxis.axis_label == "Шанс победы героя"


def test_bad_values_are_marked_at_their_fields_and_kept(app, view):
    view.monster_fold.opened = view.rules_fold.opened = True  # as for a player typing into them
    view.desk.monster_form.life = "-1"
    assert labels_in_error(view) == ["Monster's life — Must be from 0 to 999."]
    view.desk.monster_form.life = "9"
    view.setup.hero_attack = "5"
    assert labels_in_error(view) == ["Hero favour per attack — Only 3 points are held."]
    assert "Only 3 points are held." in view.odds_readout.object
    app.tr.lang = "cs"
    assert labels_in_error(view) == ["Přízeň hrdiny na útok — K dispozici jsou jen 3 body."]
    assert view.setup.hero_attack == "5"


def test_a_fight_step_shows_dice_outcome_and_log(app, view):
    tap(view, "heroes", "Ada")
    tap(view, "monsters", "Wolf")
    view.desk.start_fight()
    assert view.controls.visible and view.undo.visible
    run = view.run
    run.param.update(manual=True, a1="3", a2="3", d1="1", d2="1")
    run.attack()
    step = view.step.object
    assert step.count('class="die d6') == 4
    assert "Hit: 3 damage" in step and "A second attack: the hit took 3 of 9 life, at least a third." in step
    assert "Ada attacks again." in view.fight_status.object
    assert list(view.target.options.values()) == ["Wolf"]
    rows = log_rows(app.tr, app.state.rolls.log.entries)
    assert rows[0][2] == "Fate & Doom: Fight, round 1: Ada attacks Wolf (attack 1), dice typed in"
    run.undo()
    assert view.step.object == "" and app.state.rolls.log.entries == []


def test_an_attack_sends_its_step_before_the_rolls_panel_and_the_rest_after(app, view):
    """The page paints a roll's panel before it takes in the changes that follow it: the step,
    changed before the panel, shows in the same frame; the fight's status follows."""
    tap(view, "heroes", "Ada")
    tap(view, "monsters", "Wolf")
    view.desk.start_fight()
    changed: list[str] = []
    view.step.param.watch(lambda e: changed.append("step"), "object")
    app.result_panel.box.param.watch(lambda e: changed.append("roll"), "roll")
    view.fight_status.param.watch(lambda e: changed.append("status"), "object")
    view.run.param.update(manual=True, a1="3", a2="3", d1="1", d2="1")
    view.run.attack()
    assert changed == ["step", "roll", "status"]
    app.tr.lang = "cs"  # the step is drawn again in the language switched to
    assert "Zásah: zranění 3" in view.step.object


def test_names_stay_text(app, view):
    view.sim_fold.opened = True
    view.desk.monster_form.name_text = XSS
    tap(view, "heroes", "Ada")
    tap(view, "monsters", XSS)
    view.desk.start_fight()
    view.run.attack(seed=3)
    view.desk.simulate()
    view.desk.sim.open_run()
    for html in (
        view.encounter_status.object,
        view.odds_readout.object,
        view.fight_status.object,
        view.step.object,
        view.sim_readout.object,
        view.sim_log.object,
        app.log_table.object,
    ):
        assert "<img" not in html
    assert "&lt;img" in view.step.object


def test_simulation_shows_rounds_and_survivors(view):
    assert not hasattr(view, "rounds_slot")  # the simulation's part is made when it is first asked for
    view.sim_fold.opened = True
    assert view.rounds_slot.objects == [] and view.rounds_chart is None  # no figure before there is a simulation
    tap(view, "heroes", "Ada")
    tap(view, "monsters", "Wolf")
    view.setup.runs = "100"
    view.desk.simulate()
    assert view.sim_run.visible
    assert view.rounds_slot.objects == [view.rounds_pane]  # in the page once there is a simulation to chart
    shares = view.rounds_chart.source.data["p"]
    assert abs(sum(shares) - 1) < 1e-9
    assert "Heroes win" in view.sim_readout.object and "<li>Wolf:" in view.sim_readout.object


def test_a_blow_is_coloured_by_who_comes_off_well(app, view):
    tap(view, "heroes", "Ada")
    tap(view, "monsters", "Wolf")
    view.setup.first = "monsters"
    view.desk.start_fight()
    run = view.run
    run.param.update(manual=True, a1="6", a2="6", d1="1", d2="1")
    run.attack()  # the Wolf hits Ada: bad news at the heroes' table
    assert 'class="outcome bad" data-testid="blow" data-attacker="monsters"' in view.step.object
    run.undo()
    run.param.update(manual=True, a1="1", a2="1", d1="6", d2="6")
    run.attack()  # Ada parries the Wolf: good news
    assert 'class="outcome good" data-testid="blow" data-attacker="monsters"' in view.step.object


def test_a_character_without_a_name_is_told_why_it_cannot_join(app, view):
    assert "unnamed" not in view.unnamed_note.object
    app.state.rosters["fate"].add()  # a second character, not named yet
    assert view.desk.bench("heroes") == ["Ada"]
    assert (
        "1 without a name cannot join the fight (Character 2): give it a name on its sheet." in view.unnamed_note.object
    )
    app.state.monsters.add()
    app.state.monsters.form.name_text = ""
    app.tr.lang = "cs"
    assert "(Postava 2, Nestvůra 2)" in view.unnamed_note.object
    app.state.fate.character.name_text = "Bára"
    assert view.desk.bench("heroes") == ["Ada", "Bára"] and "Postava 2" not in view.unnamed_note.object


@pytest.mark.parametrize(("lang", "wolf", "monster"), [("ru", "Волк", "Монстр"), ("cs", "Vlk", "Nestvůra")])
def test_the_creatures_the_app_names_are_named_in_the_language_on_screen(app, view, lang, wolf, monster):
    tap(view, "monsters", "Wolf")
    app.tr.lang = lang
    assert view.desk.names("monsters") == [wolf] and view.desk.plan.monsters == [[wolf, None]]
    view.desk.add_wolf()
    view.desk.new_monster()
    view.desk.generate_monster(seed=1)
    assert view.desk.names("monsters") == [wolf, f"{wolf} 2", monster, f"{monster} 2"]
    view.desk.monster_form.name_text = "Šedivák"  # a name typed in stays whatever the language
    app.tr.lang = "en"
    assert view.desk.names("monsters") == ["Wolf", "Wolf 2", "Monster", "Šedivák"]


def test_opening_the_fight_screen_draws_no_number_field_until_one_is_asked_for(app, view):
    """What is prepared before a fight (the monster's and the hero's numbers, the table's rules and
    policies, the simulation) is folded away, and the fight's controls join the page with the fight:
    the screen opens with the one field beside Generate a monster."""
    shown = lambda: [w.label for w in view.__panel__().select(NumberInput)]  # noqa: E731
    assert shown() == ["Skill modifier"]
    # nor are the folded parts made before they are asked for, nor the chances by favour spent worked out
    assert not hasattr(view, "halving_select") and not hasattr(view, "sim_readout") and view.desk.by_spend == {}
    assert view._controls is None and not hasattr(view, "target")  # nor the fight's controls, until it starts
    folds = {
        view.monster_fold: ("Edit the monster", "Monster's life"),
        view.rules_fold: ("Show the fight's rules", "Hero favour per attack"),
        view.hero_fold: ("Change the hero's numbers", "Hero's skill"),
        view.sim_fold: ("Show the simulation", "Runs"),
    }
    for fold, (text, field) in folds.items():
        assert fold.toggle.name == text and field not in shown()
        fold.toggle.clicks += 1
        assert field in shown() and fold.toggle.name.startswith("Hide")
        fold.toggle.clicks += 1
        assert field not in shown()
    app.tr.lang = "ru"
    assert view.monster_fold.toggle.name == "Изменить монстра"
    app.tr.lang = "en"
    tap(view, "heroes", "Ada")
    tap(view, "monsters", "Wolf")
    view.desk.start_fight()
    assert shown() == ["Skill modifier", "Points the attacker spends", "Points the defender spends"]
    assert list(view.target.options.values()) == ["Wolf"]
    app.tr.lang = "cs"  # made late, they still speak the language on screen
    assert view.target.name == "Cíl" and "Body útočníka" in [w.label for w in view.__panel__().select(NumberInput)]
    app.tr.lang = "en"
    view.run.manual = True
    assert "Attacker's die 1" in shown()
    view.run.manual = False
    assert "Attacker's die 1" not in shown()
    view.run.attack(seed=3)
    while view.run.next_action() is not None:
        view.run.attack(seed=3)
    assert view.controls_slot.objects == []  # the fight is over: no controls left


def test_the_skill_check_and_the_fight_once_opened_stay_in_the_page_one_hidden(app):
    """Back and forth between the skill check and the fight sends only their visibility: nothing is
    made again, and what the fight screen holds is as it was left."""
    screens = app.view_of("fate")
    screens.switch.value = "fight"
    fight = screens.fight_view
    fight.rules_fold.opened = True
    places = list(screens.body.objects)
    screens.switch.value = "check"
    assert screens.check_place.visible and not screens.fight_place.visible
    screens.switch.value = "fight"
    assert screens.body.objects == places and screens.fight_view is fight and fight.rules_fold.opened
    assert screens.fight_place.visible and not screens.check_place.visible


def test_the_fight_screen_is_prepared_hidden_while_the_skill_check_is_shown(app):
    """What the app does once the page has been still a moment on Fate & Doom: the fight screen is
    made, hidden, so that opening it only shows it; the skill check stays as it was."""
    app.state.system = "fate"
    screens = app.view_of("fate")
    app._prepare_step("one-ring")  # what The One Ring's screen may open: nothing of the fight's is drawn
    assert screens.fight_place is None
    app._prepare_step("fate")
    assert screens.body.objects == [screens.check_place, screens.fight_place]
    assert screens.check_place.visible and not screens.fight_place.visible
    fight = screens.fight_view
    screens.switch.value = "fight"
    assert screens.fight_view is fight and screens.fight_place.visible and not screens.check_place.visible
    assert screens.body.objects == [screens.check_place, screens.fight_place]


def test_a_fight_made_on_the_tap_sends_its_first_screen_first_then_the_rest(app, monkeypatch):
    """In the browser's worker, the fight screen made on the tap holds only the monsters and the
    encounter until the event loop's next turn: the page draws them while Python makes the cards
    below; then every card is there, as when it was made ahead."""
    import asyncio

    screens = app.view_of("fate")

    async def tap_fight():
        screens.switch.value = "fight"
        fight = screens.fight_view
        first = list(fight.__panel__().objects)
        await asyncio.sleep(0)
        return fight, first

    fight, first = in_the_worker(monkeypatch, tap_fight)
    assert first == fight._cards[: FightView.FIRST_PARTS] and len(fight._cards) > FightView.FIRST_PARTS
    assert fight.__panel__().objects == fight._cards
    assert screens.fight_place.visible and screens.body.objects == [screens.check_place, screens.fight_place]


def test_a_fight_made_ahead_is_whole_when_shown(app, monkeypatch):
    """Made in a still moment, the fight screen is whole from the start: nothing is held back."""
    screens = app.view_of("fate")
    app._prepare_step("fate")

    async def tap_fight():
        screens.switch.value = "fight"
        return list(screens.fight_view.__panel__().objects)

    assert in_the_worker(monkeypatch, tap_fight) == screens.fight_view._cards


def test_a_fight_drawn_at_start_is_only_shown_on_the_tap_then_made_whole(app, monkeypatch):
    """As the static site starts: the fight's first screen is in the page, hidden. *Fight* tapped
    makes no model in the worker's tap; the cards below follow once the page has drawn it."""
    import asyncio

    from bokeh.document import Document
    from panel.io.state import set_curdoc

    doc = Document()
    with set_curdoc(doc):
        doc.add_root(app.__panel__().get_root(doc))
        app.make_screens()
        app.place_first_screens()
    screens = app.view_of("fate")
    fight = screens.fight_view

    async def tap_fight():
        models = set(doc.models)
        with set_curdoc(doc):
            screens.switch.value = "fight"
        shown = (len(set(doc.models) - models), list(fight.__panel__().objects))
        await asyncio.sleep(0.05)  # the page is asked, and has no still page to answer: at once
        return shown

    made, first = in_the_worker(monkeypatch, tap_fight)
    assert made == 0 and first == fight._cards[: FightView.FIRST_PARTS]
    assert fight.__panel__().objects == fight._cards and screens.fight_place.visible


def test_outside_the_worker_the_fight_screen_is_whole_at_once(app):
    """A Panel server or plain Python, even with an event loop running: every card at once."""
    import asyncio

    screens = app.view_of("fate")

    async def tap_fight():
        screens.switch.value = "fight"
        return list(screens.fight_view.__panel__().objects)

    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(asyncio.run, tap_fight()).result() == screens.fight_view._cards


def test_showing_fate_and_doom_makes_the_fights_objects_on_the_next_turn_and_draws_nothing(app, monkeypatch):
    """In the browser's worker, once Fate & Doom's screen is shown (that change gone to the page),
    the fight's Python objects are made on the event loop's next turn, and nothing of it is put in
    the page: *Fight* tapped at once then only makes and sends its models."""
    import asyncio

    async def show_fate():
        app.state.system = "fate"
        screens = app.view_of("fate")
        made_with_the_switch = screens._fight is not None
        await asyncio.sleep(0)
        return screens, made_with_the_switch

    screens, made_with_the_switch = in_the_worker(monkeypatch, show_fate)
    assert not made_with_the_switch and screens._fight is not None
    assert screens.fight_place is None and screens.body.objects == [screens.check_place]
