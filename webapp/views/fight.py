"""The Fate & Doom fight screen: monsters, the encounter, duel odds, a fight run blow by blow, simulation.

The shell shows it beside the skill check (:class:`webapp.views.shell.FateScreens`).
"""

from __future__ import annotations

from fractions import Fraction
from html import escape
from typing import Any

import panel as pn

from engine.fate.duel import duel_verdict

from ..i18n import N_, Translator
from ..state.fight import FightDesk
from ..words.dice import d6_pips, dice_row
from ..words.fight import (
    AFTER_KILL_LABELS,
    DUEL_VERDICT_LABELS,
    HALVING_LABELS,
    SIDE_LABELS,
    describe_events,
    extra_attack_text,
    fight_error_text,
    no_extra_attack_text,
)
from .charts import ProbabilityByValueChart
from .common import (
    Binder,
    ChartFold,
    Fold,
    PanePart,
    PaneParts,
    TextField,
    TextInput,
    alert_html,
    attempt,
    button,
    checkbox,
    choice,
    html_pane,
    percent,
    select,
    typed_text,
    wrap_row,
)
from .encounter import PLACES, EncounterBoard
from .fight_charts import LifeLeftChart

__all__ = ["FightView"]

FIGHT_CSS = """
.meter { position: relative; height: 18px; border-radius: 9px; margin: 6px 0; max-width: 520px;
  background: linear-gradient(90deg, #c0392b 0 35%, #1f6fb5 35% 65%, #2e8b57 65% 100%); }
.meter .needle { position: absolute; top: -4px; width: 6px; height: 26px; margin-left: -3px; border-radius: 3px;
  background: var(--k-fg, #14171a); }
.verdict { font-weight: 700; }
.lines td { padding: 4px 8px; text-align: center; }
.lines .fallen { text-decoration: line-through; opacity: 0.6; }
ol.blow { padding-left: 1.4em; margin: 4px 0; }
ol.blow li { margin: 3px 0; }
"""


def _error_html(tr: Translator, error: Any) -> str:
    if error is None:
        return ""
    return alert_html(fight_error_text(tr, error))


CARD = {
    "border": "1px solid var(--k-border, #6b7781)",
    "border-radius": "10px",
    "padding": "4px 10px",
    "margin": "8px 0",
}


def pane(text: str = "", **kw: Any) -> pn.pane.HTML:
    """An HTML pane that also knows the fight screen's styles (each pane has its own shadow root)."""
    return html_pane(text, stylesheets=[FIGHT_CSS], **kw)


def _title(text: str) -> str:
    return f'<div class="card-title">{escape(text)}</div>'


class FightField(TextField):
    """A text field whose error speaks of the fight (e.g. "Only 3 points are held.")."""

    @property
    def error_message(self) -> str:
        error = self.errors_of.errors.get(self.error_key)
        return fight_error_text(self.binder.tr, error) if error is not None else ""


class FightView(pn.viewable.Viewer):
    """The fight screen over a :class:`~webapp.state.fight.FightDesk`."""

    def __init__(self, app: Any, binder: Binder) -> None:
        super().__init__()
        self.app = app
        self.binder = binder
        self.tr = binder.tr
        self.desk = desk = FightDesk(app, tr=binder.tr)
        binder.on_lang(desk.localise_names)
        self.setup = desk.setup
        self.run = desk.run

        self._cards = [
            self._monsters_card(),
            self._encounter_card(),
            self._odds_card(),
            self._fight_card(),
            self._sim_card(),
        ]
        self._layout = pn.Column(*self._cards, sizing_mode="stretch_width")

    #: The cards a tablet's or a phone's first screen shows: the monsters and the encounter.
    FIRST_PARTS = 2

    @property
    def first_screen(self) -> tuple[tuple[pn.Column, int], ...]:
        """What a first screen shows at once (:func:`~webapp.views.common.hold_back`): the monsters
        and the encounter; the cards below them can follow."""
        return ((self._layout, self.FIRST_PARTS),)

    # -- helpers ----------------------------------------------------------------------------------------------
    def _field(self, model: Any, pname: str, label: str, width: int = 120, **kw: Any) -> TextField:
        return FightField(self.binder, model, pname, label, width=width, **kw)

    def _button(self, label: str, kind: str = "default", width: int = 200, **kw: Any) -> pn.widgets.Button:
        b = button("", kind=kind, min_width=width, **kw)  # as wide as its label needs, in any language
        self.binder.text(b, "name", label)
        return b

    def _act(self, action: Any, message: pn.pane.HTML | PanePart) -> Any:
        """Run ``action``; an InputError shows next to the buttons instead of crashing."""

        return lambda *_: attempt(action, message, lambda error: fight_error_text(self.tr, error))

    # -- monsters ----------------------------------------------------------------------------------------------
    def _monsters_card(self) -> pn.viewable.Viewable:
        tr, desk = self.tr, self.desk
        title = html_pane("")
        self.binder.on_lang(lambda: setattr(title, "object", _title(tr(N_("Monsters")))))
        self.monster_select = select(width=240)
        self.binder.text(self.monster_select, "name", N_("Monster"))
        self.monster_select.param.watch(self._monster_chosen, "value")
        desk.monsters.param.watch(self._monster_options, ["characters", "current"])
        self.binder.on_lang(self._monster_options)
        # what a button refused, and the monster generated: one pane
        readouts = PaneParts(html_pane(""), 2)
        message, self.generated = readouts.parts
        new = self._button(N_("New monster"), width=170)
        new.on_click(self._act(desk.new_monster, message))
        wolf = self._button(N_("Add the Wolf"), width=170)
        wolf.on_click(self._act(desk.add_wolf, message))
        delete = self._button(N_("Delete monster"), width=170)
        delete.on_click(self._act(desk.delete_monster, message))
        form = desk.monster_form

        def sheet() -> list[pn.viewable.Viewable]:
            name = TextInput(value=form.name_text, value_input=form.name_text, width=220, height=70, max_length=40)
            self.binder.text(name, "name", N_("Monster's name"))
            typed_text(name, form, "name_text")
            fields = (
                ("life", N_("Monster's life"), 130, True),
                ("life_max", N_("Monster's life (max)"), 150, False),
                ("skill", N_("Monster's skill"), 130, True),
                ("stoutness", N_("Stoutness"), 120, True),
                ("stoutness_max", N_("Stoutness (max)"), 140, False),
            )
            return [
                pn.FlexBox(
                    name,
                    *(self._field(form, key, label, width, stepper=stepper) for key, label, width, stepper in fields),
                    flex_wrap="wrap",
                    align_items="flex-end",
                )
            ]

        life_dice = choice(value=1, height=48, width=280, margin=(5, 10))
        self.binder.options(life_dice, {1: N_("Life 6+1d6"), 2: N_("Life 6+2d6")})
        life_dice.link(self.setup, value="life_dice", bidirectional=True)
        generate = self._button(N_("Generate a monster"), kind="primary", width=220)
        generate.on_click(self._act(desk.generate_monster, message))
        desk.param.watch(self._show_generated, "generated")
        self.binder.on_lang(self._show_generated)
        # the monster's numbers are prepared before the fight: folded away (and made) until asked for
        self.monster_fold = Fold(
            self.binder, build=sheet, show=N_("Edit the monster"), hide=N_("Hide the monster's numbers")
        )
        return pn.Column(
            title,
            wrap_row(self.monster_select, new, wolf, delete, align="flex-end"),
            self.monster_fold,
            wrap_row(
                self._field(self.setup, "skill_modifier", N_("Skill modifier"), 140, stepper=True, bounds=(-20, 20)),
                life_dice,
                generate,
                align="flex-end",
            ),
            readouts.pane,
            styles=CARD,
            sizing_mode="stretch_width",
        )

    def _monster_options(self, *_: Any) -> None:
        roster = self.desk.monsters
        options: dict[str, int] = {}
        for i, name in enumerate(roster.names()):
            label = name or self.tr(N_("Monster {n}"), n=i + 1)
            while label in options:
                label += " ·"
            options[label] = i
        self.monster_select.options = options
        self.monster_select.value = roster.current

    def _monster_chosen(self, event: Any) -> None:
        if isinstance(event.new, int) and event.new != self.desk.monsters.current:
            self.desk.monsters.select(event.new)

    def _show_generated(self, *_: Any) -> None:
        tr = self.tr
        if self.desk.generated is None:
            self.generated.object = ""
            return
        seed, made = self.desk.generated
        label = lambda f: tr(N_("Die showing {face}"), face=f)  # noqa: E731
        rows = (
            dice_row(
                [d6_pips(f, label=label(f)) for f in made.life_dice],
                tr(N_("Life: 6 + dice = {n}"), n=made.monster.life),
            ),
            dice_row(
                [d6_pips(made.skill_die, label=label(made.skill_die))],
                tr(N_("Skill: die {mod:+d} = {n}"), mod=made.skill_modifier, n=made.monster.skill),
            ),
            dice_row(
                [d6_pips(made.stoutness_die, label=label(made.stoutness_die))],
                tr(N_("Stoutness: die = {n}"), n=made.monster.points),
            ),
        )
        self.generated.object = (
            f'<div data-testid="generated"><div class="readout"><b>{escape(made.monster.name)}</b> '
            f'<span class="muted">{escape(tr(N_("seed {seed}"), seed=seed))}</span></div>{"".join(rows)}</div>'
        )

    # -- encounter ---------------------------------------------------------------------------------------------
    def _encounter_card(self) -> pn.viewable.Viewable:
        tr, desk, plan = self.tr, self.desk, self.desk.plan
        title = html_pane("")  # the card's title and how to fill it in, one pane
        self.binder.on_lang(
            lambda: setattr(
                title,
                "object",
                _title(tr(N_("Encounter")))
                + '<div class="note">'
                + escape(
                    tr(
                        N_(
                            "Tap a creature, then the place it goes to. Each formation is an attacking position with a defending "
                            "position behind it; formation 1 of the heroes faces formation 1 of the monsters. A creature in a "
                            "defending position regains 3 life each turn and cannot attack; attacks on it are halved as the "
                            "reading below says. A creature moved during its own side's turn acts from the next turn."
                        )
                    )
                )
                + "</div>",
            )
        )
        self.halving_readout = pane("")
        desk.param.watch(self._show_halving, ["halving_effect"])
        self.binder.on_lang(self._show_halving)
        # under the board, one pane: who cannot join for want of a name, what a tap refused, and the
        # encounter's balance (or what it lacks)
        readouts = PaneParts(pane(""), 3)
        self.unnamed_note, self.plan_message, self.encounter_status = readouts.parts
        self.board = EncounterBoard(sizing_mode="stretch_width", margin=(0, 5))
        self.board.on_tap(self._board_tapped)
        # the formations' buttons, drawn by the board: what each does, by the key its tap sends
        self._board_actions = {
            "add:heroes": (N_("Add a hero formation"), lambda: plan.add_formation("heroes")),
            "remove:heroes": (N_("Remove the last hero formation"), lambda: plan.remove_formation("heroes")),
            "add:monsters": (N_("Add a monster formation"), lambda: plan.add_formation("monsters")),
            "remove:monsters": (N_("Remove the last monster formation"), lambda: plan.remove_formation("monsters")),
            "take-out": (N_("Take out of the encounter"), plan.take_out_selected),
        }
        self.binder.on_lang(
            lambda: setattr(
                self.board, "actions", [{"key": k, "label": tr(label)} for k, (label, _) in self._board_actions.items()]
            )
        )
        for obj, names in (
            (plan, ["heroes", "monsters", "selected"]),
            (desk.heroes, ["characters"]),
            (desk.monsters, ["characters"]),
        ):
            obj.param.watch(self._draw_plan, names)
        desk.param.watch(self._show_encounter, ["encounter_error", "balance", "pairing", "odds"])
        self.binder.on_lang(self._draw_plan)
        self.binder.on_lang(self._show_encounter)
        self._draw_plan()
        # the table's readings and the sides' policies are chosen before the fight: folded away
        # (and made) until asked for
        self.rules_fold = Fold(
            self.binder,
            build=self._rules,
            show=N_("Show the fight's rules"),
            hide=N_("Hide the fight's rules"),
            width=260,
        )
        return pn.Column(
            title,
            self.board,
            readouts.pane,
            self.rules_fold,
            styles=CARD,
            sizing_mode="stretch_width",
        )

    def _rules(self) -> list[pn.viewable.Viewable]:
        """The table's readings (halving, a kill in a chain, damage, who strikes first) and both sides'
        policies for points: the encounter's folded part."""
        first = choice(value=self.setup.first, height=48, width=320, margin=(5, 10))
        self.binder.options(first, {"heroes": N_("Heroes strike first"), "monsters": N_("Monsters strike first")})
        first.link(self.setup, value="first", bidirectional=True)
        rule = select(width=300, value=self.setup.damage_rule)
        self.binder.text(rule, "name", N_("Damage"))
        self.binder.options(
            rule,
            {"difference": N_("Difference + points spent"), "one_plus": N_("1 + difference from 2 up, + points spent")},
        )
        rule.link(self.setup, value="damage_rule", bidirectional=True)
        halving = select(width=340, value=self.setup.halving)
        self.binder.text(halving, "name", N_("Attacks on a defending position"))
        self.binder.options(halving, HALVING_LABELS)
        halving.link(self.setup, value="halving", bidirectional=True)
        self.halving_select = halving
        after_kill = select(width=340, value=self.setup.after_kill)
        self.binder.text(after_kill, "name", N_("A kill inside a chain of attacks"))
        self.binder.options(after_kill, AFTER_KILL_LABELS)
        after_kill.link(self.setup, value="after_kill", bidirectional=True)
        self.after_kill_select = after_kill
        s = self.setup
        policies = pn.FlexBox(
            self._field(s, "hero_attack", N_("Hero favour per attack"), 170),
            self._field(s, "hero_defence", N_("Hero favour per defence"), 170),
            self._field(s, "hero_recover_below", N_("Hero recovers below life"), 190),
            self._field(s, "hero_recover_spend", N_("Hero favour per recovery"), 180),
            self._field(s, "monster_attack", N_("Monster stoutness per attack"), 200),
            self._field(s, "monster_defence", N_("Monster stoutness per defence"), 200),
            self._field(s, "monster_recover_below", N_("Monster recovers below life"), 200),
            self._field(s, "monster_recover_spend", N_("Monster stoutness per recovery"), 210),
            first,
            rule,
            flex_wrap="wrap",
            align_items="flex-end",
        )
        return [
            pn.FlexBox(halving, after_kill, flex_wrap="wrap", align_items="flex-end"),
            self.halving_readout,
            policies,
        ]

    def _show_halving(self, *_: Any) -> None:
        """The halving reading in force and its effect: the hit chances against either position."""
        tr, effect = self.tr, self.desk.halving_effect
        reading = tr(HALVING_LABELS[self.setup.halving])
        text = escape(tr(N_("Reading in force: {reading}."), reading=reading))
        if effect:
            hero = effect["hero"] if effect["hero"] != "?" else tr(N_("Hero"))
            monster = effect["monster"] if effect["monster"] != "?" else tr(N_("Monster"))
            lines = [
                tr(
                    N_("{attacker} hits {defender}: {front} in an attacking position, {back} in a defending position."),
                    attacker=a,
                    defender=d,
                    front=percent(front),
                    back=percent(back),
                )
                for a, d, front, back in (
                    (hero, monster, effect["hero_front"], effect["hero_back"]),
                    (monster, hero, effect["monster_front"], effect["monster_back"]),
                )
            ]
            text += "<br>" + "<br>".join(escape(line) for line in lines)
        self.halving_readout.object = f'<div class="note" data-testid="halving-effect">{text}</div>'

    def _board_tapped(self, parts: list[str]) -> None:
        """A tap on the board: a creature on its bench, a formation's place, or one of the buttons
        under the formations. A tap on what is no longer there (the board changed on its way)
        changes nothing."""
        if parts[0] == "act":
            action = self._board_actions.get(parts[1])
            if action is not None:
                self._act(action[1], self.plan_message)()
            return
        plan, side = self.desk.plan, parts[1]
        if side not in ("heroes", "monsters"):
            return
        if parts[0] == "bench":
            name = parts[2]
            if name in self.desk.bench(side):
                self._act(lambda: plan.tap_bench(side, name), self.plan_message)()
            return
        k, pos = parts[2], parts[3]
        if k.isdigit() and int(k) < len(getattr(plan, side)) and pos in ("attacking", "defending"):
            self._act(lambda: plan.tap_place(side, int(k), pos), self.plan_message)()

    def _draw_plan(self, *_: Any) -> None:
        tr, desk, plan = self.tr, self.desk, self.desk.plan
        benches = []
        for side in ("heroes", "monsters"):
            selected = plan.selected or ()
            benches.append(
                {
                    "side": side,
                    "label": tr(N_("Waiting: {side}"), side=tr(SIDE_LABELS[side])),
                    "names": desk.bench(side),
                    "selected": selected[2] if selected[:2] == ("bench", side) else "",
                }
            )
        # a creature needs a name to stand in a place: say which ones cannot join, and why
        unnamed = [tr(N_("Character {n}"), n=i + 1) for i in desk.unnamed("heroes")] + [
            tr(N_("Monster {n}"), n=i + 1) for i in desk.unnamed("monsters")
        ]
        self.unnamed_note.object = (
            ""
            if not unnamed
            else (
                '<div class="field-error" data-testid="unnamed">'
                + escape(
                    tr.ngettext(
                        "{n} without a name cannot join the fight ({names}): give it a name on its sheet.",
                        "{n} without a name cannot join the fight ({names}): give them names on their sheets.",
                        len(unnamed),
                        names=", ".join(unnamed),
                    )
                )
                + "</div>"
            )
        )
        heads = {
            ("heroes", "defending"): N_("Hero defending"),
            ("heroes", "attacking"): N_("Hero attacking"),
            ("monsters", "attacking"): N_("Monster attacking"),
            ("monsters", "defending"): N_("Monster defending"),
        }
        lines = []
        for k in range(max(len(plan.heroes), len(plan.monsters))):
            line = []
            for side, pos in PLACES:
                formations = getattr(plan, side)
                if k < len(formations):
                    name = formations[k][("attacking", "defending").index(pos)]
                    line.append(
                        {
                            "name": name or tr(N_("empty")),
                            "selected": plan.selected == ("place", side, k, pos),
                            "hidden": False,
                        }
                    )
                else:  # keeps its room so the two lines stay face to face
                    line.append({"name": "", "selected": False, "hidden": True})
            lines.append(line)
        self.board.param.update(benches=benches, heads=[tr(heads[p]) for p in PLACES], lines=lines)

    def _show_encounter(self, *_: Any) -> None:
        tr, desk = self.tr, self.desk
        error = desk.encounter_error
        if error is not None:
            if error.field in ("heroes", "monsters") and error.code == "range":  # nothing placed yet: a hint
                text = f'<div class="muted">{escape(fight_error_text(tr, error))}</div>'
            else:
                text = _error_html(tr, error)
            self.encounter_status.object = f'<div data-testid="encounter-status">{text}</div>'
            return
        b = desk.balance
        pairing = describe_events(tr, desk.pairing, desk.sides())
        repair = ""
        if pairing:
            repair = (
                '<div class="readout"><b>'
                + escape(tr(N_("Re-pairing at the start")))
                + "</b></div><ul>"
                + "".join(f"<li>{escape(t)}</li>" for t in pairing)
                + "</ul>"
            )
        self.encounter_status.object = (
            '<div data-testid="encounter-status"><div class="readout">'
            + escape(
                tr(
                    N_("Monsters' life {m} against heroes' maximum life {h} (ratio {r:.2f})."),
                    m=b.monsters_life,
                    h=b.heroes_max_life,
                    r=float(b.ratio),
                )
            )
            + "</div>"
            + self._balance_meter()
            + f"{repair}</div>"
        )

    def _balance_meter(self) -> str:
        """The balance meter: the hero's chance to win the duel below, as the duel's readout shows it,
        and who that favours (:func:`engine.fate.duel.duel_verdict`: the monster below 35 %, even
        from 35 % to 65 %, the hero above 65 %). Its words come from the very figure the odds show
        (rounded as shown), so the meter and the odds never disagree. Without odds, no verdict."""
        tr, desk = self.tr, self.desk
        odds = desk.odds
        if odds is None:
            return (
                '<div class="muted" data-testid="balance">'
                + escape(tr(N_("The balance waits for the duel's odds below.")))
                + "</div>"
            )
        shown = percent(odds.p_hero_wins)  # "30.2%"
        value = Fraction(shown.rstrip("%")) / 100
        verdict = duel_verdict(value)
        hero = desk.hero_form.name_text.strip() or tr(N_("Hero"))
        monster = desk.monster_form.name_text.strip() or tr(N_("Monster"))
        return (
            '<div class="readout" data-testid="balance">'
            + escape(
                tr(
                    N_("Balance of the duel, {hero} against {monster}: the hero wins {p},"),
                    hero=hero,
                    monster=monster,
                    p=shown,
                )
            )
            + f' <span class="verdict" data-testid="balance-verdict">{escape(tr(DUEL_VERDICT_LABELS[verdict]))}</span>.</div>'
            f'<div class="meter" role="meter" aria-valuemin="0" aria-valuemax="100" aria-valuenow="{shown.rstrip("%")}" '
            f'aria-valuetext="{escape(shown)}" aria-label="{escape(tr(N_("Balance")))}">'
            f'<div class="needle" style="left:{shown}"></div></div>'
            '<div class="note">'
            + escape(
                tr(
                    N_(
                        "By the hero's chance to win the duel: the monster is favoured below 35%, even from 35% "
                        "to 65%, the hero is favoured above 65%."
                    )
                )
            )
            + "</div>"
        )

    # -- duel odds ---------------------------------------------------------------------------------------------
    def _odds_card(self) -> pn.viewable.Viewable:
        tr, desk = self.tr, self.desk
        hero = desk.hero_form
        title = html_pane("")
        note = html_pane("")
        self.binder.on_lang(lambda: setattr(title, "object", _title(tr(N_("Odds of a duel")))))
        self.binder.on_lang(
            lambda: setattr(
                note,
                "object",
                '<div class="note">'
                + escape(
                    tr(
                        N_(
                            "The character chosen above against the monster chosen in Monsters, both attacking, points spent "
                            "by the policies above; recovery is left out of the exact odds."
                        )
                    )
                )
                + "</div>",
            )
        )
        fields = (
            ("skill", N_("Hero's skill"), 120, True),
            ("life", N_("Hero's life"), 120, True),
            ("life_max", N_("Hero's life (max)"), 140, False),
            ("favour", N_("Hero's favour"), 130, True),
            ("favour_max", N_("Hero's favour (max)"), 160, False),
        )

        def sheet() -> list[pn.viewable.Viewable]:
            return [
                pn.FlexBox(
                    *(self._field(hero, key, label, width, stepper=stepper) for key, label, width, stepper in fields),
                    flex_wrap="wrap",
                    align_items="flex-end",
                )
            ]

        self.odds_readout = pane("")
        self.life_chart: LifeLeftChart | None = None
        self.spend_chart: ProbabilityByValueChart | None = None
        # the duel's charts fold away until asked for (they were most of what opening the screen drew);
        # the chance by favour spent is worked out while they are open
        self.charts_fold = ChartFold(self.binder, build=self._duel_charts)
        self.charts_fold.param.watch(lambda e: setattr(desk, "spend_odds", e.new), "opened")
        desk.param.watch(self._show_odds, ["odds", "by_spend", "odds_error"])
        self.binder.on_lang(self._show_odds)
        self.hero_fold = Fold(
            self.binder,
            build=sheet,
            show=N_("Change the hero's numbers"),
            hide=N_("Hide the hero's numbers"),
            width=260,
        )
        return pn.Column(
            title,
            note,
            self.hero_fold,
            self.odds_readout,
            self.charts_fold,
            styles=CARD,
            sizing_mode="stretch_width",
        )

    def _duel_charts(self) -> list[pn.viewable.Viewable]:
        """The duel's charts (life left at the end, the chance by favour spent), made when first shown."""
        tr = self.tr
        life, spend = self.life_chart, self.spend_chart = LifeLeftChart(), ProbabilityByValueChart([0, 1, 2, 3])
        self.binder.on_lang(
            lambda: life.set_labels(
                tr(N_("Life left at the end")), tr(N_("Chance")), tr(N_("Hero wins")), tr(N_("Monster wins"))
            )
        )
        self.binder.on_lang(lambda: spend.set_labels(tr(N_("Favour spent per attack")), tr(N_("Chance the hero wins"))))
        self._show_odds()
        return [
            pn.pane.Bokeh(life.figure, sizing_mode="stretch_width", height=240),
            pn.pane.Bokeh(spend.figure, sizing_mode="stretch_width", height=220),
        ]

    def _show_odds(self, *_: Any) -> None:
        tr, desk = self.tr, self.desk
        odds = desk.odds
        if odds is None:
            self.odds_readout.object = (
                f'<div class="readout" data-testid="duel-readout">{_error_html(tr, desk.odds_error)}</div>'
            )
            if self.life_chart is not None and self.spend_chart is not None:
                self.life_chart.update({}, {})
                self.spend_chart.update({}, None)
            return
        hero = desk.hero_form.name_text.strip() or tr(N_("Hero"))
        monster = desk.monster_form.name_text.strip() or tr(N_("Monster"))
        values = self.setup.parse()
        self.odds_readout.object = (
            '<div class="readout" data-testid="duel-readout">'
            + escape(tr(N_("{hero} against {monster}"), hero=hero, monster=monster))
            + ": "
            + escape(tr(N_("the hero wins")))
            + f' <b data-testid="p-hero-wins">{percent(odds.p_hero_wins)}</b>, '
            + escape(tr(N_("the monster wins")))
            + f" <b>{percent(odds.p_monster_wins)}</b>; "
            + escape(tr(N_("expected rounds {r:.2f}"), r=float(odds.expected_rounds)))
            + "</div>"
        )
        if self.life_chart is not None and self.spend_chart is not None:
            self.life_chart.update(odds.hero_life_left, odds.monster_life_left)
            self.spend_chart.update(desk.by_spend, values.get("hero_attack"))

    # -- the fight -----------------------------------------------------------------------------------------------
    def _fight_card(self) -> pn.viewable.Viewable:
        tr, run = self.tr, self.run
        title = html_pane("")
        self.binder.on_lang(lambda: setattr(title, "object", _title(tr(N_("Run the fight")))))
        self.fight_message = message = html_pane("")
        start = self._button(N_("Start the fight"), kind="primary", width=220)
        start.on_click(self._act(self.desk.start_fight, message))
        self.fight_status = pane("")
        self.undo = undo = self._button(N_("Undo"), width=140, height=56, visible=False)
        undo.on_click(self._act(run.undo, message))
        self.step = pane("")
        self.write_back = self._button(N_("Write life and points to the sheets"), width=340, visible=False)
        self.write_back.on_click(self._act(self.desk.write_back, message))
        self._controls: pn.Column | None = None  # the target, points and Attack: made when a fight starts
        self.controls_slot = pn.Column(margin=0, sizing_mode="stretch_width")
        run.param.watch(self._show_fight, ["version"])
        # the step follows ``last`` alone, which changes before the roll's panel (FightRun._record)
        run.param.watch(lambda *_: self._show_step(), ["last"])
        self.binder.on_lang(self._show_step)
        self.binder.on_lang(self._show_fight)
        return pn.Column(
            title,
            start,
            self.fight_status,
            self.controls_slot,
            pn.FlexBox(undo, self.write_back),
            message,
            self.step,
            styles=CARD,
            sizing_mode="stretch_width",
        )

    @property
    def controls(self) -> pn.Column:
        """The target, the points, the typed dice and *Attack*: made when the first fight starts."""
        if self._controls is None:
            self._controls = self._make_controls()
        return self._controls

    def _make_controls(self) -> pn.Column:
        run, message = self.run, self.fight_message
        self.target = select(width=240)
        self.binder.text(self.target, "name", N_("Target"))
        self.target.param.watch(lambda e: setattr(run, "target", e.new or ""), "value")
        manual = checkbox("", value=run.manual)
        self.binder.text(manual, "name", N_("Type in the dice"))
        manual.link(run, value="manual", bidirectional=True)
        dice_fields = pn.FlexBox(
            self._field(run, "a1", N_("Attacker's die 1"), 130),
            self._field(run, "a2", N_("Attacker's die 2"), 130),
            self._field(run, "d1", N_("Defender's die 1"), 130),
            self._field(run, "d2", N_("Defender's die 2"), 130),
            flex_wrap="wrap",
            align_items="flex-end",
        )
        # the typed dice join the page when asked for
        dice_slot = pn.Column(*([dice_fields] if run.manual else []), margin=0, sizing_mode="stretch_width")
        run.param.watch(lambda e: setattr(dice_slot, "objects", [dice_fields] if e.new else []), "manual")
        attack = self._button(N_("Attack"), kind="primary", width=180, height=56)
        attack.on_click(self._act(lambda: run.attack(), message))
        recover = self._button(N_("Recover"), width=160, height=56)
        recover.on_click(self._act(lambda: run.recover(), message))
        return pn.Column(
            pn.FlexBox(
                self.target,
                self._field(run, "attack_points", N_("Points the attacker spends"), 200, stepper=True),
                self._field(run, "defence_points", N_("Points the defender spends"), 200, stepper=True),
                manual,
                flex_wrap="wrap",
                align_items="flex-end",
            ),
            dice_slot,
            pn.FlexBox(attack, recover, flex_wrap="wrap"),
            sizing_mode="stretch_width",
            margin=0,
            visible=False,
        )

    def _lines_html(self, state: Any) -> str:
        tr = self.tr

        def cell(names: tuple[str, ...]) -> str:
            if not names:
                return '<td class="muted">—</td>'
            parts = []
            for n in names:
                c = state.creature(n)
                parts.append(
                    f"<b>{escape(n)}</b><br>"
                    + escape(tr(N_("life {life}/{max}, points {p}"), life=c.life, max=c.max_life, p=c.points))
                )
            return "<td>" + "<br>".join(parts) + "</td>"

        heads = (
            tr(N_("Hero defending")),
            tr(N_("Hero attacking")),
            "",
            tr(N_("Monster attacking")),
            tr(N_("Monster defending")),
        )
        rows = "".join(f"<th>{escape(h)}</th>" for h in heads)
        body = []
        hf, mf = state.hero_formations, state.monster_formations
        for k in range(max(len(hf), len(mf))):
            h = hf[k] if k < len(hf) else None
            m = mf[k] if k < len(mf) else None
            body.append(
                "<tr>"
                + (cell(h.defending) + cell(h.attacking) if h else "<td></td><td></td>")
                + f"<td><b>⚔ {k + 1}</b></td>"
                + (cell(m.attacking) + cell(m.defending) if m else "<td></td><td></td>")
                + "</tr>"
            )
        fallen = [c.name for c in state.creatures if not c.alive]
        out = f'<table class="lines log" data-testid="fight-lines"><thead><tr>{rows}</tr></thead><tbody>{"".join(body)}</tbody></table>'
        if fallen:
            out += '<div class="readout">' + escape(tr(N_("Fallen: {names}"), names=", ".join(fallen))) + "</div>"
        return out

    def _show_fight(self, *_: Any) -> None:
        tr, run = self.tr, self.run
        state = run.state
        if state is None:
            self.fight_status.object = (
                '<div class="muted" data-testid="fight-status">'
                + escape(tr(N_("Place the creatures above, then start the fight.")))
                + "</div>"
            )
            self._show_controls(False)
            self.undo.visible = self.write_back.visible = False
            self.step.object = ""
            return
        na = run.next_action()
        if na is None:
            if state.winner == "heroes":
                text = tr(N_("The heroes win in round {round}."), round=state.round)
            elif state.winner == "monsters":
                text = tr(N_("The monsters win in round {round}."), round=state.round)
            else:
                text = tr.ngettext(
                    "No winner after {n} round: the fight is stopped.",
                    "No winner after {n} rounds: the fight is stopped.",
                    state.round,
                )
            good = "good" if state.winner == "heroes" else "bad"
            status = f'<div class="outcome {good}" data-testid="fight-over">{escape(text)}</div>'
            if self._controls is not None:
                self.target.options = []
        else:
            turn = (
                N_("Round {round}: the heroes' turn.")
                if na.side == "heroes"
                else N_("Round {round}: the monsters' turn.")
            )
            if na.attack_number == 1:
                why = tr(N_("{actor} acts: the first attack of its turn, or a recovery instead."), actor=na.actor)
            else:
                last = run.last_attack() or {}
                why = (
                    tr(N_("{actor} attacks again."), actor=na.actor)
                    + " "
                    + extra_attack_text(
                        tr,
                        na.attack_number,
                        last.get("damage", 0),
                        last.get("life_before", 0),
                        last.get("life_after") == 0,
                    )
                )
            status = (
                f'<div class="readout" data-testid="fight-status"><b>{escape(tr(turn, round=na.round))}</b> '
                f'<span data-testid="actor">{escape(why)}</span></div>'
            )
            self.controls  # noqa: B018  (made now, for the first fight)
            options = {}
            for n in na.targets:
                damage_halved = run.fight.encounter.halving == "damage"
                halved = N_("(defending: damage halved)") if damage_halved else N_("(defending: attack halved)")
                label = n + (" " + tr(halved) if n in na.halved_targets else "")
                options[label] = n
            if self.target.options != options:  # (most blows leave the targets as they were)
                self.target.options = options
            if self.target.value != na.default_target:
                self.target.value = na.default_target
        self.fight_status.object = status + self._lines_html(state)
        self._show_controls(na is not None)
        self.undo.visible = self.write_back.visible = True

    def _show_controls(self, shown: bool) -> None:
        """The target, points and Attack join the page while the fight runs (opening the screen makes none)."""
        if not shown and self._controls is None:
            return
        self.controls.visible = shown
        objects = [self.controls] if shown else []
        if self.controls_slot.objects != objects:
            self.controls_slot.objects = objects

    def _show_step(self) -> None:
        tr = self.tr
        entry = self.run.last
        if entry is None:
            self.step.object = ""
            return
        events = entry.roll["events"]
        state = self.run.state
        sides = (
            {c.name: "heroes" if c.kind == "hero" else "monsters" for c in state.creatures} if state is not None else {}
        )
        label = lambda f: tr(N_("Die showing {face}"), face=f)  # noqa: E731
        parts = []
        for e in events:
            if e["event"] == "attack":
                parts.append(
                    dice_row(
                        [d6_pips(f, label=label(f)) for f in e["attack_faces"]],
                        tr(N_("Attack: {name}"), name=e["attacker"]),
                    )
                )
                parts.append(
                    dice_row(
                        [d6_pips(f, label=label(f)) for f in e["defence_faces"]],
                        tr(N_("Defence: {name}"), name=e["defender"]),
                    )
                )
                if e["hit"]:
                    outcome = tr(N_("Hit: {damage} damage"), damage=e["damage"])
                else:
                    outcome = tr(N_("Parried"))
                # coloured by who comes off well: a hero's hit or a monster parried is good news
                side = sides.get(e["attacker"])
                css = "" if side is None else "good" if (side == "heroes") == bool(e["hit"]) else "bad"
                parts.append(
                    f'<div class="outcome {css}" data-testid="blow" data-attacker="{escape(side or "")}">'
                    f"{escape(outcome)}</div>"
                )
                if not any(x["event"] == "extra_attack" for x in events):
                    why = no_extra_attack_text(tr, e)
                    if why:
                        parts.append(f'<div class="readout" data-testid="extra">{escape(why)}</div>')
            elif e["event"] == "extra_attack":
                last = next(x for x in events if x["event"] == "attack")
                parts.append(
                    f'<div class="readout" data-testid="extra"><b>'
                    f"{escape(extra_attack_text(tr, e['attack_number'], last['damage'], last['life_before'], bool(e.get('after_kill'))))}"
                    "</b></div>"
                )
            elif e["event"] == "recover":
                parts.append(
                    dice_row(
                        [d6_pips(f, label=label(f)) for f in e["faces"]], tr(N_("Recovery: {name}"), name=e["creature"])
                    )
                )
        text = describe_events(tr, [e for e in events if e["event"] != "round_end"], self.desk.sides())
        self.step.object = (
            f'<div data-testid="fight-step">{"".join(parts)}<ul>'
            + "".join(f"<li>{escape(t)}</li>" for t in text)
            + "</ul></div>"
        )

    # -- simulation ----------------------------------------------------------------------------------------------
    def _sim_card(self) -> pn.viewable.Viewable:
        tr = self.tr
        title = html_pane("")
        self.binder.on_lang(lambda: setattr(title, "object", _title(tr(N_("Simulate")))))
        # many fights played out by the computer: asked for, not part of the fight at the table, so
        # folded away (and made) until then
        self.sim_fold = Fold(
            self.binder, build=self._sim_body, show=N_("Show the simulation"), hide=N_("Hide the simulation")
        )
        return pn.Column(title, self.sim_fold, styles=CARD, sizing_mode="stretch_width")

    def _sim_body(self) -> list[pn.viewable.Viewable]:
        sim = self.desk.sim
        message = html_pane("")
        go = self._button(N_("Simulate"), kind="primary", width=180)
        go.on_click(self._act(self.desk.simulate, message))
        self.sim_readout = pane("")
        self.rounds_chart: ProbabilityByValueChart | None = None  # made with the first simulation
        self.rounds_pane: pn.pane.Bokeh | None = None
        # in the page only once there is a simulation to chart: opening the fold draws no figure
        self.rounds_slot = pn.Column(margin=0, sizing_mode="stretch_width")
        show = self._button(N_("Show this fight"), width=200)
        show.on_click(self._act(sim.open_run, message))
        self.sim_log = pane("")
        sim.param.watch(self._show_sim, ["summary"])
        sim.param.watch(self._show_run, ["run_log"])
        self.sim_run = pn.FlexBox(
            FightField(self.binder, sim, "run_text", N_("Run number"), width=140),
            show,
            flex_wrap="wrap",
            align_items="flex-end",
            visible=False,
        )
        self.binder.on_lang(self._show_sim)
        self.binder.on_lang(self._show_run)
        return [
            pn.FlexBox(
                self._field(self.setup, "runs", N_("Runs"), 120),
                self._field(self.setup, "seed", N_("Seed"), 220),
                go,
                flex_wrap="wrap",
                align_items="flex-end",
            ),
            message,
            self.sim_readout,
            self.rounds_slot,
            self.sim_run,
            self.sim_log,
        ]

    def _rounds(self) -> tuple[ProbabilityByValueChart, pn.pane.Bokeh]:
        """The chart of rounds until the end and its pane, made for the first simulation."""
        if self.rounds_chart is None or self.rounds_pane is None:
            tr = self.tr
            chart = self.rounds_chart = ProbabilityByValueChart([])
            self.binder.on_lang(lambda: chart.set_labels(tr(N_("Rounds until the end")), tr(N_("Share of fights"))))
            self.rounds_pane = pn.pane.Bokeh(chart.figure, sizing_mode="stretch_width", height=200)
        return self.rounds_chart, self.rounds_pane

    def _show_sim(self, *_: Any) -> None:
        tr, summary = self.tr, self.desk.sim.summary
        self.sim_run.visible = bool(summary)
        if not summary:
            self.rounds_slot.objects = []
            self.sim_readout.object = ""
            return
        chart, shown = self._rounds()
        if self.rounds_slot.objects != [shown]:
            self.rounds_slot.objects = [shown]
        chart.update({int(k): v / summary["runs"] for k, v in summary["rounds"].items()}, None)
        low, high = summary["p_heroes_win_ci95"]
        survivors = "".join(f"<li>{escape(name)}: {share:.1%}</li>" for name, share in summary["survivors"].items())
        self.sim_readout.object = (
            '<div class="readout" data-testid="sim-readout">'
            + escape(
                tr.ngettext(
                    "Heroes win {p} of {n} fight (interval of 95%: {low}–{high}).",
                    "Heroes win {p} of {n} fights (interval of 95%: {low}–{high}).",
                    summary["runs"],
                    p=percent(summary["p_heroes_win"]),
                    runs=summary["runs"],
                    low=percent(low),
                    high=percent(high),
                )
            )
            + "<br>"
            + escape(
                tr(
                    N_("Monsters win {m}, unfinished {u}; {r:.1f} rounds on average."),
                    m=summary["monster_wins"],
                    u=summary["unfinished"],
                    r=summary["mean_rounds"],
                )
            )
            + f"<div>{escape(tr(N_('Still standing at the end:')))}<ul>{survivors}</ul></div></div>"
        )

    def _show_run(self, *_: Any) -> None:
        tr, sim = self.tr, self.desk.sim
        if not sim.run_log:
            self.sim_log.object = ""
            return
        lines = describe_events(tr, [e for e in sim.run_log if e["event"] != "round_end"], self.desk.sides())
        self.sim_log.object = (
            '<div data-testid="sim-log"><div class="readout">'
            + escape(tr(N_("Fight {n}, seed {seed}"), n=sim.run_text.strip(), seed=sim.run_result.get("seed", "")))
            + '</div><ol class="blow">'
            + "".join(f"<li>{escape(t)}</li>" for t in lines)
            + "</ol></div>"
        )

    def __panel__(self) -> pn.viewable.Viewable:
        return self._layout
