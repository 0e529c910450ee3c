"""The Fate & Doom fight screen's state as ``param`` models, with no Panel import.

- :class:`MonsterSheet` — one monster's form (raw text kept, errors per field);
  the monsters live in a :class:`~webapp.state.roster.Roster` next to the characters.
- :class:`EncounterPlan` — who stands where: formations of attacking and
  defending positions per side, changed by tapping a creature then a place.
- :class:`FightSetup` — spending policies, who strikes first, the damage rule
  and the simulation's runs and seed; builds the engine's
  :class:`~engine.fate.battle.Encounter` and the exact duel odds.
- :class:`FightRun` — a fight run blow by blow (dice drawn from a seed or
  typed in), every step in the roll log, undo one step.
- :class:`Simulation` — many seeded battles and any one of them as a log;
- :class:`FightDesk` — all of the above for one session, wired to the app's
  Fate & Doom characters (the heroes), its monster roster and its roll log.

The fight's words (events, errors, labels) are :mod:`webapp.words.fight`'s.
"""

from __future__ import annotations

from typing import Any, ClassVar

import param

from engine import Dice, InputError, RuleError
from engine.fate.attack import HALVING_RULES, WOLF, Combatant, Policy, attack_odds, generate_monster
from engine.fate.battle import AFTER_KILL, Encounter, Fight, run_seed, simulate_battle, simulate_many
from engine.fate.duel import duel_odds, win_chance_by_spend

from ..i18n import LANGUAGES, N_, catalogue
from .fate import FateCharacter
from .forms import Form, cap_check, parse_int, sheet_form
from .log import LogEntry, now
from .rolls import RollService

__all__ = [
    "EncounterPlan",
    "FightDesk",
    "FightRun",
    "FightSetup",
    "MonsterSheet",
    "Simulation",
    "generate",
    "hero_from_sheet",
    "monster_dict",
    "monster_from_sheet",
    "unique_name",
]

SIDES = ("heroes", "monsters")
POSITIONS = ("attacking", "defending")
MAX_FORMATIONS = 12
MAX_SIM_RUNS = 5000
#: The largest duel worked out live, in states: hero life x monster life x the hero's points + 1
#: (x the monster's points + 1 when it spends them). Bigger duels take seconds, more in the browser.
MAX_LIVE_STATES = 12_000


# -- sheets ------------------------------------------------------------------------------------------


@sheet_form
class MonsterSheet(Form):
    """A monster: life (current/max), skill, stoutness (current/max). Starts as the Wolf."""

    system: ClassVar[str] = "fate-monster"

    def _cross_check(self, values: dict[str, Any]) -> dict[str, InputError]:
        return {**cap_check(values, "life", "life_max"), **cap_check(values, "stoutness", "stoutness_max")}


def _sheet_values(form: Form, data: dict[str, Any], path: str) -> tuple[str, dict[str, Any]]:
    form.load(data)
    values = form.parse()
    for key, error in form.errors.items():
        raise InputError(f"{path}.{key}", error.code, error.message, **error.params)
    name = form.name_text.strip()
    if not name:
        raise InputError(f"{path}.name", "empty", "a name is needed")
    return name, values


def hero_from_sheet(data: dict[str, Any], path: str = "hero") -> Combatant:
    """A Fate & Doom character (as the roster stores it) as a combat hero."""
    name, v = _sheet_values(FateCharacter(), data, path)
    return Combatant.hero(name, v["life"], v["skill"], v["favour"], max_life=v["life_max"], max_favour=v["favour_max"])


def monster_from_sheet(data: dict[str, Any], path: str = "monster") -> Combatant:
    """A stored monster sheet as a combat monster."""
    name, v = _sheet_values(MonsterSheet(), data, path)
    return Combatant.monster(
        name, v["life"], v["skill"], v["stoutness"], max_life=v["life_max"], max_stoutness=v["stoutness_max"]
    )


def monster_dict(c: Combatant) -> dict[str, Any]:
    """A combat monster as the form/roster stores it (text fields)."""
    return {
        "name": c.name,
        "life": str(c.life),
        "life_max": str(c.max_life),
        "skill": str(c.skill),
        "stoutness": str(c.points),
        "stoutness_max": str(c.max_points),
    }


#: The names the app gives the creatures it makes (the Wolf, a new or a generated monster), in the
#: language on screen; numbered "Wolf 2", "Волк 2"… when taken.
DEFAULT_NAMES = {"wolf": N_("Wolf"), "monster": N_("Monster")}


def localised_name(name: str, tr: Any) -> str | None:
    """``name`` in ``tr``'s language if it is a name the app gave ("Wolf 2" -> "Волк 2"), else None."""
    base, _, number = name.rpartition(" ")
    if not (number.isdigit() and base):
        base, number = name, ""
    for msgid in DEFAULT_NAMES.values():
        if base in {catalogue(lang).gettext(msgid) for lang in LANGUAGES}:
            return f"{tr(msgid)} {number}".strip()
    return None


def unique_name(base: str, taken: Any) -> str:
    """``base``, or ``base 2``, ``base 3``… whichever is not in ``taken``."""
    taken = set(taken)
    if base not in taken:
        return base
    n = 2
    while f"{base} {n}" in taken:
        n += 1
    return f"{base} {n}"


# -- who stands where ------------------------------------------------------------------------------------


class EncounterPlan(param.Parameterized):
    """Formations of both sides, each a pair ``[attacking name, defending name]`` (``None`` = empty).

    Moving is two taps: tap a creature (on the bench or in a place), then tap
    the place it goes to; a creature already there swaps with it (or goes back
    to the bench when the first tap was on the bench).
    """

    heroes = param.List(default=[[None, None]], doc="hero formations: [attacking, defending] names")
    monsters = param.List(default=[[None, None]], doc="monster formations")
    selected = param.Parameter(default=None, doc='("place", side, k, pos) or ("bench", side, name) or None')

    def lines(self, side: str) -> list[list[str | None]]:
        return [list(f) for f in getattr(self, side)]

    def placed(self, side: str) -> list[str]:
        return [n for f in getattr(self, side) for n in f if n]

    def where(self, side: str, name: str) -> tuple[int, str] | None:
        for k, f in enumerate(getattr(self, side)):
            for pos, n in zip(POSITIONS, f, strict=False):
                if n == name:
                    return k, pos
        return None

    def _set(self, side: str, lines: list[list[str | None]]) -> None:
        setattr(self, side, [list(f) for f in lines])

    def place(self, side: str, name: str, formation: int | None = None, position: str = "attacking") -> None:
        """Put ``name`` in a place (default: the first free attacking position, else a new formation)."""
        lines = [[n if n != name else None for n in f] for f in self.lines(side)]
        if formation is None:
            free = [k for k, f in enumerate(lines) if f[0] is None]
            if free:
                formation = free[0]
            else:
                if len(lines) >= MAX_FORMATIONS:
                    raise InputError(f"{side}.formations", "range", "too many formations", high=MAX_FORMATIONS)
                lines.append([None, None])
                formation = len(lines) - 1
        lines[formation][POSITIONS.index(position)] = name
        self._set(side, lines)

    def take_out(self, side: str, name: str) -> None:
        self._set(side, [[n if n != name else None for n in f] for f in self.lines(side)])

    def tap_bench(self, side: str, name: str) -> None:
        choice = ("bench", side, name)
        self.selected = None if self.selected == choice else choice

    def tap_place(self, side: str, formation: int, position: str) -> None:
        lines = self.lines(side)
        i = POSITIONS.index(position)
        here = lines[formation][i]
        sel = self.selected
        if sel is None or sel[1] != side:
            self.selected = ("place", side, formation, position) if here else None
            return
        if sel[0] == "bench":
            self.selected = None
            self.place(side, sel[2], formation, position)
            return
        _, _, k0, p0 = sel
        self.selected = None
        if (k0, p0) == (formation, position):
            return
        j = POSITIONS.index(p0)
        lines[k0][j], lines[formation][i] = lines[formation][i], lines[k0][j]
        self._set(side, lines)

    def take_out_selected(self) -> None:
        sel = self.selected
        if sel and sel[0] == "place":
            _, side, k, pos = sel
            lines = self.lines(side)
            lines[k][POSITIONS.index(pos)] = None
            self._set(side, lines)
        self.selected = None

    def add_formation(self, side: str) -> None:
        lines = self.lines(side)
        if len(lines) >= MAX_FORMATIONS:
            raise InputError(f"{side}.formations", "range", "too many formations", high=MAX_FORMATIONS)
        self._set(side, [*lines, [None, None]])

    def remove_formation(self, side: str) -> None:
        """Remove the last formation; its creatures go back to the bench."""
        lines = self.lines(side)
        if len(lines) > 1:
            self.selected = None
            self._set(side, lines[:-1])

    def rename(self, side: str, old: str, new: str) -> None:
        if old in self.placed(side):
            self.selected = None
            self._set(side, [[new if n == old else n for n in f] for f in self.lines(side)])

    def prune(self, side: str, names: Any) -> None:
        """Forget creatures no longer on the roster (deleted or renamed)."""
        names = set(names)
        lines = self.lines(side)
        cleaned = [[n if n in names else None for n in f] for f in lines]
        if cleaned != lines:
            self.selected = None
            self._set(side, cleaned)

    def formations_dict(self, side: str) -> list[dict[str, str | None]]:
        return [{"attacking": a, "defending": d} for a, d in getattr(self, side)]

    def to_dict(self) -> dict[str, Any]:
        return {"heroes": self.lines("heroes"), "monsters": self.lines("monsters")}

    def load(self, data: Any) -> None:
        if not isinstance(data, dict):
            return
        for side in SIDES:
            raw = data.get(side)
            if isinstance(raw, list) and raw:
                lines = []
                for f in raw[:MAX_FORMATIONS]:
                    if isinstance(f, list) and len(f) == 2:
                        lines.append([n if isinstance(n, str) else None for n in f])
                if lines:
                    self._set(side, lines)


# -- policies, the encounter and the duel odds ------------------------------------------------------------


class FightSetup(Form):
    """Spending policies of each side, options, and the simulation's runs and seed (all form text)."""

    BOUNDS = {
        "hero_attack": (0, 99),
        "hero_defence": (0, 99),
        "hero_recover_below": (0, 999),
        "hero_recover_spend": (0, 99),
        "monster_attack": (0, 99),
        "monster_defence": (0, 99),
        "monster_recover_below": (0, 999),
        "monster_recover_spend": (0, 99),
        "runs": (1, MAX_SIM_RUNS),
        "seed": (0, 2**64 - 1),
    }

    name_text = param.String(default="")
    hero_attack = param.String(default="0", doc="favour points each hero spends per attack")
    hero_defence = param.String(default="0")
    hero_recover_below = param.String(default="0", doc="a hero recovers when its life is below this (0: never)")
    hero_recover_spend = param.String(default="0")
    monster_attack = param.String(default="0", doc="stoutness points each monster spends per attack")
    monster_defence = param.String(default="0")
    monster_recover_below = param.String(default="0")
    monster_recover_spend = param.String(default="0")
    first = param.Selector(default="heroes", objects=list(SIDES))
    damage_rule = param.Selector(default="difference", objects=["difference", "one_plus"])
    halving = param.Selector(
        default="roll",
        objects=list(HALVING_RULES),
        doc="the defending position's halving: the whole attack roll, the dice and points, or the damage",
    )
    after_kill = param.Selector(
        default="end",
        objects=list(AFTER_KILL),
        doc="a kill inside a chain of attacks: the chain ends, or goes on to the next enemy faced",
    )
    runs = param.String(default="500")
    seed = param.String(default="1")
    skill_modifier = param.String(default="0", doc="added to the skill die of a generated monster")
    life_dice = param.Selector(default=1, objects=[1, 2], doc="a generated monster's life: 6 + 1d6 or 6 + 2d6")

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        #: points held by the duel's hero and monster, for the "more than held" check
        self.held: dict[str, int] = {}

    def _cross_check(self, values: dict[str, Any]) -> dict[str, InputError]:
        errors: dict[str, InputError] = {}
        try:
            parse_int("skill_modifier", self.skill_modifier, -20, 20)
        except InputError as error:
            errors["skill_modifier"] = error
        for key in ("hero_attack", "hero_defence", "monster_attack", "monster_defence"):
            held = self.held.get(key.split("_")[0])
            if held is not None and values.get(key, 0) > held:
                errors[key] = RuleError(key, "more points than held", held=held, high=held)
        return errors

    def policy(self, side: str, values: dict[str, Any] | None = None) -> Policy:
        v = self.parse() if values is None else values
        p = side[:-2] if side == "heroes" else "monster"
        return Policy(
            v.get(f"{p}_attack", 0),
            v.get(f"{p}_defence", 0),
            v.get(f"{p}_recover_below", 0),
            v.get(f"{p}_recover_spend", 0),
        )

    def policy_errors(self, prefix: str) -> list[InputError]:
        return [e for k, e in self.errors.items() if k.startswith(prefix)]

    def encounter(self, heroes: list[dict[str, Any]], monsters: list[dict[str, Any]], plan: EncounterPlan) -> Encounter:
        """The engine's Encounter of the creatures placed in ``plan``; InputError names what is wrong.

        ``heroes`` and ``monsters`` are the rosters' stored sheets (by name).
        """
        values = self.parse()
        for key in (
            "hero_attack",
            "hero_defence",
            "hero_recover_below",
            "hero_recover_spend",
            "monster_attack",
            "monster_defence",
            "monster_recover_below",
            "monster_recover_spend",
        ):
            if key in self.errors and self.errors[key].code != "rule":  # "rule": more than the duel's pair holds
                raise self.errors[key]
        sheets: dict[str, dict[str, dict[str, Any]]] = {"heroes": {}, "monsters": {}}
        for side, rows in (("heroes", heroes), ("monsters", monsters)):
            for row in rows:
                name = str(row.get("name") or "").strip()
                if name and name not in sheets[side]:
                    sheets[side][name] = row
        data: dict[str, Any] = {
            "formations": {},
            "options": {
                "first": self.first,
                "damage_rule": self.damage_rule,
                "halving": self.halving,
                "after_kill": self.after_kill,
            },
        }
        for side, make in (("heroes", hero_from_sheet), ("monsters", monster_from_sheet)):
            placed = plan.placed(side)
            if not placed:
                raise InputError(side, "range", "an encounter needs at least one creature on each side", low=1)
            lines = plan.formations_dict(side)
            for k, f in enumerate(lines):
                if not f["attacking"] and not f["defending"]:
                    raise InputError(
                        f"formations.{side}[{k}]", "rule", "an empty formation", formation=k + 1, side=side
                    )
            creatures = []
            policy = self.policy(side, values).to_dict()
            for name in placed:
                c = make(sheets[side][name], f"{side}.{name}") if name in sheets[side] else None
                if c is None:
                    raise InputError(f"{side}.{name}", "choice", "not on the roster", value=name)
                if not c.alive:
                    raise RuleError(f"{side}.{name}.life", "no life left", value=0, creature=name)
                row = c.to_dict()
                del row["kind"]
                row["policy"] = policy
                creatures.append(row)
            data[side] = creatures
            data["formations"][side] = lines
        seen: set[str] = set()
        for name in [*plan.placed("heroes"), *plan.placed("monsters")]:
            if name in seen:
                raise InputError("name", "rule", "a name is used on both sides", value=name, twice=name)
            seen.add(name)
        return Encounter.from_dict(data)

    def duel(self, hero: Combatant, monster: Combatant, by_spend: bool = True) -> tuple[Any, dict[int, Any]]:
        """Exact duel odds and, with ``by_spend``, the win chance by favour spent per attack ({} without)
        (InputError when a field is bad)."""
        self.held = {"hero": hero.points, "monster": monster.points}
        values = self.parse()
        for key in ("hero_attack", "hero_defence", "monster_attack", "monster_defence"):
            if key in self.errors:
                raise self.errors[key]
        monster_spends = values["monster_attack"] or values["monster_defence"]
        states = hero.life * monster.life * (hero.points + 1) * (monster.points + 1 if monster_spends else 1)
        if states > MAX_LIVE_STATES:
            raise InputError(
                "life", "range", "too big a duel for live odds", high=MAX_LIVE_STATES, value=states, live=True
            )
        hp = Policy(values["hero_attack"], values["hero_defence"])
        mp = Policy(values["monster_attack"], values["monster_defence"])
        first = "hero" if self.first == "heroes" else "monster"
        odds = duel_odds(hero, monster, hp, mp, first=first, damage_rule=self.damage_rule, max_rounds=30)
        if not by_spend:
            return odds, {}
        spends = win_chance_by_spend(
            hero, monster, mp, hero_defence_spend=values["hero_defence"], first=first, damage_rule=self.damage_rule
        )
        return odds, spends


# -- the fight run blow by blow ----------------------------------------------------------------------------


class FightRun(Form):
    """A fight at the table: one tap per attack (dice from a seed, or typed in), undo one step.

    Every step becomes one :class:`~webapp.state.log.LogEntry` (``kind="fight"``)
    in the session's roll log; undo removes it again.
    """

    BOUNDS = {
        "attack_points": (0, 99),
        "defence_points": (0, 99),
        "a1": (1, 6),
        "a2": (1, 6),
        "d1": (1, 6),
        "d2": (1, 6),
    }

    name_text = param.String(default="")
    attack_points = param.String(default="0", doc="points the acting creature spends (attack or recovery)")
    defence_points = param.String(default="0", doc="points the target spends on its defence")
    target = param.String(default="", doc="the chosen target ('' = the default one)")
    manual = param.Boolean(default=False, doc="dice typed in instead of rolled")
    a1 = param.String(default="")
    a2 = param.String(default="")
    d1 = param.String(default="")
    d2 = param.String(default="")

    fight = param.Parameter(default=None, doc="the engine's Fight, or None before the start")
    steps = param.List(default=[], doc="log entry numbers of the steps, oldest first")
    last = param.Parameter(default=None, doc="the LogEntry of the last step (None after an undo or a start)")
    version = param.Integer(default=0, doc="bumped after every change of the fight")

    def __init__(self, rolls: RollService | None = None, **params: Any) -> None:
        super().__init__(**params)
        self.rolls = rolls or RollService()

    # -- reading -----------------------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return None if self.fight is None else self.fight.state

    def next_action(self) -> Any:
        return None if self.fight is None else self.fight.next_action()

    def last_attack(self) -> dict[str, Any] | None:
        """The attack event that earned the current extra attack, if any."""
        if self.fight is None:
            return None
        for event in reversed(self.fight.log):
            if event["event"] == "attack":
                return event
        return None

    # -- actions ------------------------------------------------------------------------------------------
    def start(self, encounter: Encounter) -> None:
        self.param.update(
            fight=Fight(encounter), steps=[], last=None, target="", attack_points="0", defence_points="0", errors={}
        )
        self.version += 1

    def _points(self, actor: Combatant, target: Combatant | None) -> tuple[int, int]:
        values = self.parse()
        errors = {k: v for k, v in self.errors.items() if k in ("attack_points", "defence_points")}
        if "attack_points" in values and values["attack_points"] > actor.points:
            errors["attack_points"] = RuleError(
                "attack_points", "more points than held", held=actor.points, high=actor.points, creature=actor.name
            )
        if target is not None and "defence_points" in values and values["defence_points"] > target.points:
            errors["defence_points"] = RuleError(
                "defence_points", "more points than held", held=target.points, high=target.points, creature=target.name
            )
        if errors:
            self.errors = {**self.errors, **errors}
            raise next(iter(errors.values()))
        return values["attack_points"], values["defence_points"]

    def _faces(self, keys: tuple[str, ...]) -> list[int]:
        errors = {}
        faces = []
        for key in keys:
            try:
                faces.append(parse_int(key, getattr(self, key), 1, 6))
            except InputError as error:
                errors[key] = error
        if errors:
            self.errors = {**self.errors, **errors}
            raise next(iter(errors.values()))
        return faces

    def _check_ready(self) -> Any:
        na = self.next_action()
        if na is None:
            raise RuleError("fight", "the fight is over" if self.fight is not None else "no fight yet")
        return na

    def attack(self, seed: int | None = None) -> LogEntry:
        na = self._check_ready()
        s = self.fight.state
        target = self.target if self.target in na.targets else na.default_target
        actor, defender = s.creature(na.actor), s.creature(target)
        a_pts, d_pts = self._points(actor, defender)
        kwargs: dict[str, Any] = {"attack_points": a_pts, "defence_points": d_pts, "target": target}
        if self.manual:
            a1, a2, d1, d2 = self._faces(("a1", "a2", "d1", "d2"))
            kwargs.update(attack_faces=[a1, a2], defence_faces=[d1, d2])
            seed = None
        else:
            seed = self.rolls.next_seed(seed)
            kwargs["dice"] = Dice(seed)
        before = len(self.fight.log)
        self.fight.attack(**kwargs)
        events = self.fight.log[before:]
        check = {
            "action": "attack",
            "actor": na.actor,
            "target": target,
            "attack_number": na.attack_number,
            "round": na.round,
            "attack_points": a_pts,
            "defence_points": d_pts,
            "typed": self.manual,
        }
        return self._record(na.actor, "attack", check, seed, events)

    def recover(self, seed: int | None = None) -> LogEntry:
        na = self._check_ready()
        if not na.can_recover:
            raise RuleError("recover", "in the middle of a chain of attacks")
        actor = self.fight.state.creature(na.actor)
        points, _ = self._points(actor, None)
        kwargs: dict[str, Any] = {"points": points}
        if self.manual:
            kwargs["faces"] = self._faces(("a1", "a2"))
            seed = None
        else:
            seed = self.rolls.next_seed(seed)
            kwargs["dice"] = Dice(seed)
        before = len(self.fight.log)
        self.fight.recover(**kwargs)
        events = self.fight.log[before:]
        check = {"action": "recover", "actor": na.actor, "round": na.round, "points": points, "typed": self.manual}
        return self._record(na.actor, "recover", check, seed, events)

    def _record(
        self, actor: str, action: str, check: dict[str, Any], seed: int | None, events: list[dict[str, Any]]
    ) -> LogEntry:
        self.rolls.counter += 1
        entry = LogEntry(
            number=self.rolls.counter,
            time=now(),
            system="fate",
            character=actor,
            ability=action,
            check=check,
            seed=seed,
            roll={"events": events},
            kind="fight",
        )
        # The step first (its screen draws it as ``last`` changes), then the log and the roll's
        # panel, which the page paints before it takes in what follows: the step shows in the same
        # frame as the roll, and the rest of the fight's screen follows (``version``).
        self.param.update(
            steps=[*self.steps, entry.number], last=entry, target="", attack_points="0", defence_points="0", errors={}
        )
        self.rolls.log.add(entry)
        self.version += 1
        return entry

    def undo(self) -> None:
        """Step back one action; its entry leaves the roll log."""
        if self.fight is None:
            raise RuleError("undo", "no fight yet")
        self.fight.undo()
        number = self.steps[-1] if self.steps else None
        if number is not None:
            self.rolls.log.entries = [e for e in self.rolls.log.entries if e.number != number]
        steps = self.steps[:-1]
        last = next((e for e in self.rolls.log.entries if steps and e.number == steps[-1]), None)
        self.param.update(steps=steps, last=last, errors={})
        self.version += 1


# -- many battles ------------------------------------------------------------------------------------------------


class Simulation(param.Parameterized):
    """Seeded battles of one encounter: the summary and any single run's log."""

    summary = param.Dict(default={}, doc="simulate_many's result ({} before the first run)")
    encounter = param.Parameter(default=None)
    run_text = param.String(default="1", doc="which run to open (1-based, as the user counts)")
    run_log = param.List(default=[], doc="the events of the opened run")
    run_result = param.Dict(default={})
    errors = param.Dict(default={})

    def simulate(self, encounter: Encounter, seed: int, runs: int) -> dict[str, Any]:
        summary = simulate_many(encounter, seed, runs)
        self.param.update(encounter=encounter, summary=summary, run_log=[], run_result={}, errors={})
        return summary

    def open_run(self) -> list[dict[str, Any]]:
        if self.encounter is None or not self.summary:
            raise RuleError("run", "simulate first")
        try:
            run = parse_int("run", self.run_text, 1, self.summary["runs"])
        except InputError as error:
            self.errors = {"run": error}
            raise
        result = simulate_battle(self.encounter, run_seed(self.summary["seed"], run - 1))
        self.param.update(run_log=result["log"], run_result={k: v for k, v in result.items() if k != "log"}, errors={})
        return result["log"]


# -- monsters from the dice ------------------------------------------------------------------------------------


def generate(seed: int, skill_modifier: int = 0, life_dice: int = 1, taken: Any = (), base: str = "Monster") -> Any:
    """A monster from the dice of ``seed``, named Monster / Monster 2 / … (``base``, not in ``taken``)."""
    return generate_monster(Dice(seed), skill_modifier, life_dice, unique_name(base, taken))


# -- the whole screen's state ------------------------------------------------------------------------------------


class FightDesk(param.Parameterized):
    """Everything on the fight screen: monsters, the encounter, the duel odds, the fight and the simulation.

    Heroes are the app's Fate & Doom characters; the duel pits the character
    on the form against the monster on the form.
    """

    odds = param.Parameter(default=None, doc="DuelOdds of the chosen hero and monster, or None")
    by_spend = param.Dict(default={}, doc="favour spent per attack -> P(hero wins) ({} until spend_odds)")
    spend_odds = param.Boolean(
        default=False, doc="whether by_spend is worked out (four more duels, for a chart that is asked for)"
    )
    odds_error = param.Parameter(default=None, doc="why there are no odds (an InputError), or None")
    halving_effect = param.Dict(
        default={},
        doc="the halving reading's effect: hit chances of the form's hero and "
        "monster against each other, in an attacking and in a defending position",
    )
    encounter_error = param.Parameter(default=None, doc="why the encounter cannot be fought (InputError) or None")
    balance = param.Parameter(default=None, doc="engine Balance of the placed creatures, or None")
    pairing = param.List(default=[], doc="re-pairing events at the start of the fight")
    paired = param.Dict(default={}, doc="side -> formations after re-pairing (lists of names)")
    generated = param.Parameter(default=None, doc="(seed, GeneratedMonster) of the last generated monster")
    message = param.Parameter(default=None, doc="an InputError from the last action, shown by the buttons")

    def __init__(self, app: Any, tr: Any = None, **params: Any) -> None:
        super().__init__(**params)
        self.app = app
        self.tr = tr  # a Translator: the names the app gives creatures are in its language
        self.heroes = app.rosters["fate"]
        self.hero_form = app.fate.character
        self.monsters = app.monsters
        self.monster_form = self.monsters.form
        self.plan = EncounterPlan()
        self.setup = FightSetup()
        self.run = FightRun(rolls=app.rolls)
        self.sim = Simulation()
        inputs = [p for p in self.hero_form.param if p not in ("name", "errors")]
        self.hero_form.param.watch(self._refresh_odds, inputs)
        self.param.watch(self._refresh_odds, "spend_odds")
        self.monster_form.param.watch(
            self._refresh_odds, [p for p in self.monster_form.param if p not in ("name", "errors")]
        )
        self.setup.param.watch(
            self._refresh_odds,
            ["hero_attack", "hero_defence", "monster_attack", "monster_defence", "first", "damage_rule", "halving"],
        )
        self.heroes.param.watch(self._refresh_encounter, ["characters"])
        self.monsters.param.watch(self._refresh_encounter, ["characters"])
        self.plan.param.watch(self._refresh_encounter, ["heroes", "monsters"])
        self.setup.param.watch(
            self._refresh_encounter,
            [p for p in FightSetup.BOUNDS if "recover" in p]
            + ["hero_attack", "hero_defence", "monster_attack", "monster_defence"],
        )
        self._refresh_odds()
        self._refresh_encounter()
        self.localise_names()

    # -- names -------------------------------------------------------------------------------------------------
    def names(self, side: str) -> list[str]:
        roster = self.heroes if side == "heroes" else self.monsters
        out: list[str] = []
        for name in roster.names():
            name = name.strip()
            if name and name not in out:
                out.append(name)
        return out

    def unnamed(self, side: str) -> list[int]:
        """The places in the roster of ``side`` of the creatures without a name (they cannot join a fight)."""
        roster = self.heroes if side == "heroes" else self.monsters
        return [i for i, name in enumerate(roster.names()) if not name.strip()]

    def bench(self, side: str) -> list[str]:
        placed = set(self.plan.placed(side))
        return [n for n in self.names(side) if n not in placed]

    # -- monsters ----------------------------------------------------------------------------------------------
    def default_name(self, kind: str) -> str:
        """The name the app gives a new creature of ``kind`` (``"wolf"``, ``"monster"``), translated."""
        return self.tr(DEFAULT_NAMES[kind]) if self.tr is not None else DEFAULT_NAMES[kind]

    def localise_names(self) -> None:
        """Names the app gave ("Wolf", "Monster 2") follow the language on screen; names typed in stay."""
        if self.tr is None:
            return
        sheets, renamed = [], {}
        taken = set(self.monsters.names())
        for sheet in self.monsters.characters:
            name = str(sheet.get("name") or "")
            new = localised_name(name, self.tr)
            if new is not None and new != name and new not in taken:
                taken.add(new)
                renamed[name] = new
                sheet = {**sheet, "name": new}
            sheets.append(sheet)
        if renamed:
            with param.parameterized.discard_events(self.plan):  # renamed in place, not pruned as unknown
                for old, new in renamed.items():
                    self.plan.rename("monsters", old, new)
            self.monsters.characters = sheets
            self.monsters.select(self.monsters.current)

    def add_wolf(self) -> None:
        self.monsters.add()
        self.monster_form.load(
            {**monster_dict(WOLF), "name": unique_name(self.default_name("wolf"), self.monsters.names())}
        )

    def new_monster(self) -> None:
        self.monsters.add()
        self.monster_form.name_text = unique_name(self.default_name("monster"), self.monsters.names())

    def delete_monster(self) -> None:
        self.monsters.remove()

    def generate_monster(self, seed: int | None = None) -> Any:
        self.setup.parse()
        if "skill_modifier" in self.setup.errors:
            raise self.setup.errors["skill_modifier"]
        seed = self.app.rolls.next_seed(seed)
        made = generate(
            seed,
            parse_int("skill_modifier", self.setup.skill_modifier, -20, 20),
            int(self.setup.life_dice),
            self.monsters.names(),
            base=self.default_name("monster"),
        )
        self.monsters.add()
        self.monster_form.load(monster_dict(made.monster))
        self.generated = (seed, made)
        return made

    # -- derived -----------------------------------------------------------------------------------------------
    def _refresh_odds(self, *_: Any) -> None:
        self.monster_form.parse()  # marks the sheet's bad fields
        self.hero_form.parse()
        try:
            hero_sheet, monster_sheet = self.hero_form.to_dict(), self.monster_form.to_dict()
            hero = hero_from_sheet({**hero_sheet, "name": hero_sheet["name"].strip() or "?"}, "hero")
            monster = monster_from_sheet({**monster_sheet, "name": monster_sheet["name"].strip() or "?"}, "monster")
        except InputError as error:
            self.param.update(odds=None, by_spend={}, odds_error=error, halving_effect={})
            return
        self.halving_effect = self._halving_effect(hero, monster)
        try:
            odds, by_spend = self.setup.duel(hero, monster, by_spend=self.spend_odds)
        except InputError as error:
            self.param.update(odds=None, by_spend={}, odds_error=error)
            return
        self.param.update(odds=odds, by_spend=by_spend, odds_error=None)

    def _halving_effect(self, hero: Combatant, monster: Combatant) -> dict[str, Any]:
        """Hit chances of the hero on the form against the monster on the form and back, against an
        attacking and a defending position, under the halving reading chosen (points as the policies spend)."""
        values = self.setup.parse()
        h_att, h_def = min(values.get("hero_attack", 0), hero.points), min(values.get("hero_defence", 0), hero.points)
        m_att = min(values.get("monster_attack", 0), monster.points)
        m_def = min(values.get("monster_defence", 0), monster.points)
        rule, halving = self.setup.damage_rule, self.setup.halving

        def p(a: Combatant, d: Combatant, ap: int, dp: int, back: bool) -> Any:
            return attack_odds(a.skill, d.skill, ap, dp, back, rule, halving).p_hit

        return {
            "halving": halving,
            "hero": hero.name,
            "monster": monster.name,
            "hero_front": p(hero, monster, h_att, m_def, False),
            "hero_back": p(hero, monster, h_att, m_def, True),
            "monster_front": p(monster, hero, m_att, h_def, False),
            "monster_back": p(monster, hero, m_att, h_def, True),
        }

    def encounter(self) -> Encounter:
        return self.setup.encounter(list(self.heroes.characters), list(self.monsters.characters), self.plan)

    def _refresh_encounter(self, *_: Any) -> None:
        self.plan.prune("heroes", self.names("heroes"))
        self.plan.prune("monsters", self.names("monsters"))
        try:
            encounter = self.encounter()
        except InputError as error:
            self.param.update(encounter_error=error, balance=None, pairing=[], paired={})
            return
        fight = Fight(encounter)
        state = fight.state
        paired = {side: [[list(f.attacking), list(f.defending)] for f in state.formations(side)] for side in SIDES}
        self.param.update(
            encounter_error=None,
            balance=encounter.balance(),
            paired=paired,
            pairing=[e for e in fight.log if e["event"] == "position"],
        )

    def sides(self) -> dict[str, str]:
        return {**{n: "heroes" for n in self.names("heroes")}, **{n: "monsters" for n in self.names("monsters")}}

    # -- actions -----------------------------------------------------------------------------------------------
    def start_fight(self) -> None:
        self.run.start(self.encounter())

    def write_back(self) -> int:
        """Copy life and points of the fight's creatures to their sheets (by name); returns how many changed."""
        state = self.run.state
        if state is None:
            raise RuleError("fight", "no fight yet")
        changed = 0
        for roster, kind, points in ((self.heroes, "hero", "favour"), (self.monsters, "monster", "stoutness")):
            now = {c.name: c for c in state.creatures if c.kind == kind}
            sheets = []
            for sheet in roster.characters:
                c = now.get(str(sheet.get("name") or "").strip())
                if c is not None and (sheet.get("life"), sheet.get(points)) != (str(c.life), str(c.points)):
                    sheet = {**sheet, "life": str(c.life), points: str(c.points)}
                    changed += 1
                sheets.append(sheet)
            if sheets != roster.characters:
                roster.characters = sheets
                roster.select(roster.current)
        return changed

    def simulate(self) -> dict[str, Any]:
        values = self.setup.parse()
        for key in ("runs", "seed"):
            if key in self.setup.errors:
                raise self.setup.errors[key]
        return self.sim.simulate(self.encounter(), values["seed"], values["runs"])
