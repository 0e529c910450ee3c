"""Fate & Doom encounters: formations, a fight run step by step, seeded battles.

An :class:`Encounter` (heroes, monsters, their formations, spending policies
and options) is read from JSON by :meth:`Encounter.from_dict`, which checks
everything and names the JSON path of any bad value (``heroes[1].life``).
A :class:`Fight` runs it one action at a time — with dice typed in or drawn
from a :class:`~engine.rng.Dice` — keeping immutable snapshots so that
:meth:`Fight.undo` is trivial; :func:`simulate_battle` lets the policies play a
whole fight from a seed and :func:`simulate_many` summarises many of them.

Readings of the positions rules (RULES.md section 3; the source breaks off,
so each point is a **decision**):

- A *formation* is one line of a side: an attacking position (the seed's 1
  or 2) and the defending position behind it (3 or 4). Formation ``k`` of one
  side faces formation ``k`` of the other. In an encounter file each position
  holds at most one creature.
- A side's turn: first each creature in a defending position regains 3 life
  (never above its maximum); then the creatures in attacking positions act one
  by one, in formation order. Each either recovers or attacks; a creature in a
  defending position neither attacks nor recovers (its 3 life a turn is its
  rest). The hero side acts first unless ``options.first`` is ``"monsters"``;
  a round is one turn of each side.
- An attacker strikes a creature of the facing formation: the one in its
  attacking position unless it chooses one in the defending position, against
  which the attack is halved as ``options.halving`` reads it (``"roll"``, the
  default; ``"dice"``; ``"damage"``: see :mod:`engine.fate.attack`). Extra attacks
  from the three-attack rule go to the same target. When a hit of the chain
  fells its target the chain ends (``options.after_kill`` ``"end"``, the
  default), or, with ``"next"`` (an **option**), the extra attack it earned
  (a fell blow always takes a third, and half, of the life it met) goes on to
  the enemies the attacker faces after the re-pairing, the attacker choosing
  among them as for a first attack; after a third attack the chain ends
  either way, and an attacker moved by the re-pairing ends its chain.
- *Re-pairing* happens at the start of the fight and after every fall:
  fallen creatures leave their positions; a formation whose attacking position
  is empty moves its defenders forward; empty formations are removed (the
  formations behind move up, keeping their order); then, while one side has
  more formations than the other, its last formations are broken up and their
  creatures join the attacking positions of its remaining formations, in turn
  from the first (so a position may then hold several creatures). Both sides
  end with the same number of formations, as the source requires. Creatures
  moved in the middle of their own side's turn act from the next turn: one
  still waiting to act this turn (a creature of a formation broken up) loses
  its action this turn (event ``"waits"``); a defender stepping forward was
  not due to act anyway.
- The fight ends when one side has no creature standing, or as *unfinished*
  after ``options.max_rounds`` rounds (default 100).

Dice order: every attack takes the attacker's two dice then the defender's
two; a recovery takes two. In :func:`simulate_many` run ``i`` uses the seed
:func:`run_seed` ``(seed, i)`` = the first 8 bytes (big-endian) of
``SHA-256(b"kostka-battle-v1:" + ascii(seed) + b":" + ascii(i))``, so any run
can be replayed alone with :func:`simulate_battle`.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, replace
from typing import Any

from ..errors import InputError, RuleError, check_choice, check_int
from ..rng import MAX_SEED, Dice
from .attack import (
    DAMAGE_RULES,
    HALVING_RULES,
    NEVER,
    Combatant,
    Policy,
    attack,
    earns_extra_attack,
    encounter_balance,
    recover,
)
from .events import Attack, End, Event, ExtraAttack, Fall, Position, Recover, Regen, RoundEnd, Spend, Start, Turn, Waits

__all__ = [
    "SIDES",
    "Encounter",
    "Fight",
    "FightState",
    "Formation",
    "NextAction",
    "run_seed",
    "simulate_battle",
    "simulate_many",
    "wilson_interval",
]

SIDES = ("heroes", "monsters")
#: What a kill inside a chain of attacks does: the chain ends (default), or goes on to the next enemy faced.
AFTER_KILL = ("end", "next")
OPTIONS = ("damage_rule", "first", "max_rounds", "halving", "after_kill")
POSITIONS = ("attacking", "defending")
TARGETS = ("front", "weakest")
REGEN = 3
MAX_CREATURES = 40
MAX_RUNS = 100_000


def _side_of(c: Combatant) -> str:
    return "heroes" if c.kind == "hero" else "monsters"


def _other(side: str) -> str:
    return "monsters" if side == "heroes" else "heroes"


@dataclass(frozen=True)
class Formation:
    """One line of a side: names in its attacking and its defending position."""

    attacking: tuple[str, ...] = ()
    defending: tuple[str, ...] = ()

    @property
    def members(self) -> tuple[str, ...]:
        return self.attacking + self.defending

    def to_dict(self) -> dict[str, Any]:
        return {"attacking": list(self.attacking), "defending": list(self.defending)}


# -- the encounter --------------------------------------------------------------
@dataclass(frozen=True)
class Encounter:
    """Everything needed to run a fight. Build it with :meth:`from_dict`.

    JSON schema (``formations``, ``policy`` and ``options`` may be left out)::

        {"heroes":   [{"name": "Ada", "life": 12, "max_life": 12, "skill": 7,
                       "favour": 3, "max_favour": 3,
                       "policy": {"attack_spend": 1, "defence_spend": 0,
                                  "recover_below": 0, "recover_spend": 0,
                                  "target": "front"}}],
         "monsters": [{"name": "Wolf", "life": 9, "skill": 8, "stoutness": 4}],
         "formations": {"heroes":   [{"attacking": "Ada", "defending": null}],
                        "monsters": [{"attacking": "Wolf"}]},
         "options": {"damage_rule": "difference", "first": "heroes",
                     "max_rounds": 100, "halving": "roll", "after_kill": "end"}}

    Without ``formations`` for a side, each of its creatures stands alone in
    the attacking position of its own formation. ``policy`` may also be the
    string ``"never"``; ``target`` is ``"front"`` (the facing attacking
    position) or ``"weakest"`` (the facing creature with least life).
    """

    heroes: tuple[Combatant, ...]
    monsters: tuple[Combatant, ...]
    hero_formations: tuple[Formation, ...]
    monster_formations: tuple[Formation, ...]
    policies: tuple[tuple[str, Policy], ...] = ()
    targets: tuple[tuple[str, str], ...] = ()
    damage_rule: str = "difference"
    first: str = "heroes"
    max_rounds: int = 100
    halving: str = "roll"
    after_kill: str = "end"

    @property
    def creatures(self) -> tuple[Combatant, ...]:
        return self.heroes + self.monsters

    def policy(self, name: str) -> Policy:
        return dict(self.policies).get(name, NEVER)

    def target_rule(self, name: str) -> str:
        return dict(self.targets).get(name, "front")

    def balance(self) -> Any:
        return encounter_balance(self.heroes, self.monsters)

    def formations(self, side: str) -> tuple[Formation, ...]:
        return self.hero_formations if side == "heroes" else self.monster_formations

    @classmethod
    def from_json(cls, text: str) -> Encounter:
        try:
            data = json.loads(text)
        except (ValueError, RecursionError) as error:
            raise InputError("encounter", "format", f"not valid JSON: {error}") from None
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> Encounter:
        if not isinstance(data, dict):
            raise InputError("encounter", "format", "expected a JSON object with heroes and monsters")
        for key in data:
            if key not in ("heroes", "monsters", "formations", "options"):
                raise InputError(
                    str(key),
                    "choice",
                    "unknown field; allowed: heroes, monsters, formations, options",
                    value=key,
                    allowed=["heroes", "monsters", "formations", "options"],
                )
        lists: dict[str, tuple[Combatant, ...]] = {}
        policies: list[tuple[str, Policy]] = []
        targets: list[tuple[str, str]] = []
        seen: set[str] = set()
        for side, kind in (("heroes", "hero"), ("monsters", "monster")):
            raw = data.get(side)
            if not isinstance(raw, list) or not raw:
                raise InputError(side, "format", "expected a non-empty list of creatures")
            if len(raw) > MAX_CREATURES:
                raise InputError(side, "range", f"at most {MAX_CREATURES} creatures per side", high=MAX_CREATURES)
            out = []
            for i, item in enumerate(raw):
                path = f"{side}[{i}]"
                c = Combatant.from_dict(item, kind, path)
                if not c.alive:
                    raise RuleError(f"{path}.life", f"{c.name} starts the fight with no life left", value=0)
                if c.name in seen:
                    raise InputError(
                        f"{path}.name", "rule", f"the name {c.name!r} is used twice; names must be unique", value=c.name
                    )
                seen.add(c.name)
                raw_policy = item.get("policy")
                target = "front"
                if isinstance(raw_policy, dict) and "target" in raw_policy:
                    raw_policy = dict(raw_policy)
                    target = check_choice(f"{path}.policy.target", raw_policy.pop("target"), TARGETS)
                policies.append((c.name, Policy.from_dict(raw_policy, f"{path}.policy")))
                targets.append((c.name, target))
                out.append(c)
            lists[side] = tuple(out)
        formations = data.get("formations", {})
        if not isinstance(formations, dict):
            raise InputError("formations", "format", "expected an object with heroes and monsters lists")
        for key in formations:
            if key not in SIDES:
                raise InputError(
                    f"formations.{key}",
                    "choice",
                    "unknown side; allowed: heroes, monsters",
                    value=key,
                    allowed=list(SIDES),
                )
        placed = {side: _read_formations(formations.get(side), lists[side], f"formations.{side}") for side in SIDES}
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise InputError("options", "format", "expected an object")
        for key in options:
            if key not in OPTIONS:
                raise InputError(
                    f"options.{key}",
                    "choice",
                    f"unknown option; allowed: {', '.join(OPTIONS)}",
                    value=key,
                    allowed=list(OPTIONS),
                )
        return cls(
            lists["heroes"],
            lists["monsters"],
            placed["heroes"],
            placed["monsters"],
            tuple(policies),
            tuple(targets),
            check_choice("options.damage_rule", options.get("damage_rule", "difference"), DAMAGE_RULES),
            check_choice("options.first", options.get("first", "heroes"), SIDES),
            check_int("options.max_rounds", options.get("max_rounds", 100), 1, 1000),
            check_choice("options.halving", options.get("halving", "roll"), HALVING_RULES),
            check_choice("options.after_kill", options.get("after_kill", "end"), AFTER_KILL),
        )

    def to_dict(self) -> dict[str, Any]:
        def sheet(c: Combatant) -> dict[str, Any]:
            out = c.to_dict()
            del out["kind"]
            out["policy"] = {**self.policy(c.name).to_dict(), "target": self.target_rule(c.name)}
            return out

        def lines(fs: tuple[Formation, ...]) -> list[dict[str, Any]]:
            return [
                {
                    "attacking": f.attacking[0] if f.attacking else None,
                    "defending": f.defending[0] if f.defending else None,
                }
                for f in fs
            ]

        return {
            "heroes": [sheet(c) for c in self.heroes],
            "monsters": [sheet(c) for c in self.monsters],
            "formations": {"heroes": lines(self.hero_formations), "monsters": lines(self.monster_formations)},
            "options": {
                "damage_rule": self.damage_rule,
                "first": self.first,
                "max_rounds": self.max_rounds,
                "halving": self.halving,
                "after_kill": self.after_kill,
            },
        }


def _read_formations(raw: Any, creatures: tuple[Combatant, ...], path: str) -> tuple[Formation, ...]:
    names = [c.name for c in creatures]
    if raw is None:
        return tuple(Formation((n,)) for n in names)
    if not isinstance(raw, list) or not raw:
        raise InputError(path, "format", "expected a non-empty list of formations")
    used: set[str] = set()
    out = []
    for i, item in enumerate(raw):
        here = f"{path}[{i}]"
        if not isinstance(item, dict):
            raise InputError(here, "format", 'expected {"attacking": name, "defending": name}')
        for key in item:
            if key not in POSITIONS:
                raise InputError(
                    f"{here}.{key}",
                    "choice",
                    "unknown position; allowed: attacking, defending",
                    value=key,
                    allowed=list(POSITIONS),
                )
        slots: dict[str, tuple[str, ...]] = {}
        for pos in POSITIONS:
            name = item.get(pos)
            if name is None:
                slots[pos] = ()
                continue
            if not isinstance(name, str) or name.strip() not in names:
                raise InputError(
                    f"{here}.{pos}", "choice", f"not a creature of this side: {name!r}", value=name, allowed=names
                )
            name = name.strip()
            if name in used:
                raise InputError(f"{here}.{pos}", "rule", f"{name} already has a position", value=name)
            used.add(name)
            slots[pos] = (name,)
        if not slots["attacking"] and not slots["defending"]:
            raise InputError(here, "rule", "an empty formation; put a creature in it or remove it")
        out.append(Formation(slots["attacking"], slots["defending"]))
    missing = [n for n in names if n not in used]
    if missing:
        raise InputError(path, "rule", f"no position for {', '.join(missing)}", value=missing)
    return tuple(out)


# -- the fight state machine ----------------------------------------------------------
@dataclass(frozen=True)
class FightState:
    """A snapshot of a fight between two actions."""

    creatures: tuple[Combatant, ...]
    hero_formations: tuple[Formation, ...]
    monster_formations: tuple[Formation, ...]
    round: int = 1
    side: str = "heroes"
    queue: tuple[str, ...] = ()  #: attackers still to act this turn; the first one acts next
    attack_number: int = 1
    target: str | None = None  #: the target of an ongoing chain of attacks
    reason: str = ""  #: why the next attack is allowed
    finished: bool = False
    winner: str | None = None  #: "heroes", "monsters" or None (still on, or unfinished)

    def creature(self, name: str) -> Combatant:
        for c in self.creatures:
            if c.name == name:
                return c
        raise InputError("name", "choice", f"no creature named {name!r}", value=name)

    def formations(self, side: str) -> tuple[Formation, ...]:
        return self.hero_formations if side == "heroes" else self.monster_formations

    def position(self, name: str) -> tuple[int, str] | None:
        """(formation index, "attacking"/"defending") or None for a fallen creature."""
        side = _side_of(self.creature(name))
        for i, f in enumerate(self.formations(side)):
            if name in f.attacking:
                return i, "attacking"
            if name in f.defending:
                return i, "defending"
        return None

    def standing(self, side: str) -> tuple[Combatant, ...]:
        return tuple(c for c in self.creatures if _side_of(c) == side and c.alive)

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "side": self.side,
            "queue": list(self.queue),
            "attack_number": self.attack_number,
            "target": self.target,
            "reason": self.reason,
            "finished": self.finished,
            "winner": self.winner,
            "creatures": [c.to_dict() for c in self.creatures],
            "formations": {
                "heroes": [f.to_dict() for f in self.hero_formations],
                "monsters": [f.to_dict() for f in self.monster_formations],
            },
        }


@dataclass(frozen=True)
class NextAction:
    """What the fight waits for: who acts, which attack of the chain, on whom, and why."""

    actor: str
    side: str
    round: int
    attack_number: int
    targets: tuple[str, ...]  #: creatures the actor may strike (facing formation)
    default_target: str
    halved_targets: tuple[str, ...]  #: those in a defending position (attack roll halved)
    can_recover: bool
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}


def _with_creature(state: FightState, new: Combatant) -> FightState:
    return replace(state, creatures=tuple(new if c.name == new.name else c for c in state.creatures))


def _set_formations(state: FightState, side: str, fs: tuple[Formation, ...]) -> FightState:
    return replace(state, hero_formations=fs) if side == "heroes" else replace(state, monster_formations=fs)


def _regroup(state: FightState, events: list[Event]) -> FightState:
    """Re-pairing: remove the fallen, move defenders forward, even out the formations."""
    alive = {c.name for c in state.creatures if c.alive}
    lines: dict[str, list[Formation]] = {}
    for side in SIDES:
        out = []
        for f in state.formations(side):
            att = tuple(n for n in f.attacking if n in alive)
            dfn = tuple(n for n in f.defending if n in alive)
            if not att and dfn:
                for n in dfn:
                    events.append(
                        Position(n, "defending", "attacking", "the attacking position of its formation is empty")
                    )
                att, dfn = dfn, ()
            if att:
                out.append(Formation(att, dfn))
        lines[side] = out
    counts = {side: len(lines[side]) for side in SIDES}
    if min(counts.values()) > 0 and counts["heroes"] != counts["monsters"]:
        big = "heroes" if counts["heroes"] > counts["monsters"] else "monsters"
        keep = counts[_other(big)]
        kept = [[list(f.attacking), list(f.defending)] for f in lines[big][:keep]]
        moved = [n for f in lines[big][keep:] for n in f.members]
        for j, n in enumerate(moved):
            kept[j % keep][0].append(n)
            reason = f"the {big} have more formations than the {_other(big)}; extra ones are broken up"
            events.append(Position(n, "broken formation", "attacking", reason, j % keep + 1))
        lines[big] = [Formation(tuple(a), tuple(d)) for a, d in kept]
    return replace(state, hero_formations=tuple(lines["heroes"]), monster_formations=tuple(lines["monsters"]))


def _check_end(state: FightState, events: list[Event]) -> FightState:
    for side in SIDES:
        if not state.standing(side):
            winner = _other(side)
            events.append(End(winner, state.round))
            return replace(state, finished=True, winner=winner, queue=(), target=None)
    return state


def _begin_turn(state: FightState, side: str, round_: int, events: list[Event], max_rounds: int) -> FightState:
    if round_ > max_rounds:
        events.append(End(None, max_rounds, "round limit reached"))
        return replace(state, finished=True, winner=None, queue=(), target=None, round=max_rounds)
    state = replace(state, side=side, round=round_, attack_number=1, target=None, reason="")
    events.append(Turn(round_, side))
    for f in state.formations(side):
        for n in f.defending:
            c = state.creature(n)
            gained = min(c.max_life, c.life + REGEN) - c.life
            if gained:
                state = _with_creature(state, c.with_life(c.life + gained))
                events.append(Regen(n, gained, c.life + gained))
    queue = tuple(n for f in state.formations(side) for n in f.attacking)
    return replace(state, queue=queue, reason="first attack of the turn")


def _advance(state: FightState, events: list[Event], first: str, max_rounds: int) -> FightState:
    """The current actor is done: next actor, next side or next round."""
    queue = state.queue[1:]
    while True:
        if queue:
            return replace(state, queue=queue, attack_number=1, target=None, reason="first attack of the turn")
        if state.side == first:
            state = _begin_turn(state, _other(first), state.round, events, max_rounds)
        else:
            events.append(RoundEnd(state.round))
            state = _begin_turn(state, first, state.round + 1, events, max_rounds)
        if state.finished:
            return state
        queue = state.queue
        if queue:
            return state


class Fight:
    """A fight run one action at a time, with undo.

    ``fight.next_action()`` says who acts and why; ``fight.attack(...)`` and
    ``fight.recover(...)`` take dice faces typed in or a :class:`Dice`;
    ``fight.undo()`` steps back; ``fight.events`` is every event so far as
    records (:mod:`engine.fate.events`), ``fight.log`` the same as JSON.
    """

    def __init__(self, encounter: Encounter) -> None:
        if not isinstance(encounter, Encounter):
            raise InputError("encounter", "type", "expected an Encounter (see Encounter.from_dict)")
        self.encounter = encounter
        events: list[Event] = [Start(encounter.balance())]
        state = FightState(encounter.creatures, encounter.hero_formations, encounter.monster_formations)
        state = _regroup(state, events)
        state = _begin_turn(state, encounter.first, 1, events, encounter.max_rounds)
        self._history: list[tuple[FightState, tuple[Event, ...]]] = [(state, tuple(events))]
        self._logged: list[list[dict[str, Any]]] = []  # each step's events as JSON, made when first asked for

    @property
    def state(self) -> FightState:
        return self._history[-1][0]

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def events(self) -> list[Event]:
        """Every event so far, oldest first."""
        return [e for _, events in self._history for e in events]

    @property
    def log(self) -> list[dict[str, Any]]:
        """Every event so far as JSON (each event's ``to_dict()``)."""
        logged = self._logged
        for _, events in self._history[len(logged) :]:
            logged.append([e.to_dict() for e in events])
        return [e for events in logged for e in events]

    @property
    def steps(self) -> int:
        return len(self._history) - 1

    def undo(self) -> FightState:
        """Forget the last action; refused at the start of the fight."""
        if len(self._history) == 1:
            raise RuleError("undo", "nothing to undo: the fight is at its start")
        self._history.pop()
        del self._logged[len(self._history) :]
        return self.state

    def next_action(self) -> NextAction | None:
        s = self.state
        if s.finished:
            return None
        actor = s.queue[0]
        index, _ = s.position(actor)  # type: ignore[misc]  # the creature in turn is standing: it has a place
        facing = s.formations(_other(s.side))[index]
        if s.target is not None:
            targets: tuple[str, ...] = (s.target,)
        else:
            targets = facing.members
        halved = tuple(n for n in targets if n in facing.defending)
        return NextAction(
            actor, s.side, s.round, s.attack_number, targets, targets[0], halved, s.attack_number == 1, s.reason
        )

    def _commit(self, state: FightState, events: list[Event]) -> FightState:
        self._history.append((state, tuple(events)))
        return state

    def attack(
        self,
        dice: Dice | None = None,
        *,
        attack_faces: Any = None,
        defence_faces: Any = None,
        attack_points: int = 0,
        defence_points: int = 0,
        target: str | None = None,
    ) -> FightState:
        """The acting creature attacks (see :func:`engine.fate.attack.attack` for the dice)."""
        na = self.next_action()
        if na is None:
            raise RuleError("fight", "the fight is over")
        s = self.state
        target = na.default_target if target is None else target
        if target not in na.targets:
            raise RuleError(
                "target",
                f"{na.actor} can strike only {', '.join(na.targets)} now",
                value=target,
                allowed=list(na.targets),
            )
        attacker, defender = s.creature(na.actor), s.creature(target)
        record = attack(
            attacker,
            defender,
            dice,
            attack_points=attack_points,
            defence_points=defence_points,
            defender_in_defence=target in na.halved_targets,
            damage_rule=self.encounter.damage_rule,
            attack_faces=attack_faces,
            defence_faces=defence_faces,
            halving=self.encounter.halving,
        )
        events: list[Event] = []
        for who, spent, left, role in (
            (attacker, record.attack_points, record.attacker_points_after, "attack"),
            (defender, record.defence_points, record.defender_points_after, "defence"),
        ):
            if spent:
                events.append(Spend(who.name, spent, who.points_name, role, left))
        events.append(Attack(s.round, na.attack_number, record))
        state = _with_creature(s, attacker.with_points(record.attacker_points_after))
        state = _with_creature(state, defender.with_points(record.defender_points_after).with_life(record.life_after))
        if record.life_after == 0:
            events.append(Fall(defender.name, attacker.name))
            state = _check_end(state, events)
            if state.finished:
                return self._commit(state, events)
            before = len(events)
            state = _regroup(state, events)
            moved = {e.creature for e in events[before:] if isinstance(e, Position)}
            waiting = tuple(n for n in state.queue[1:] if n not in moved)
            for n in state.queue[1:]:
                if n in moved:
                    events.append(Waits(n, "moved during its own side's turn: it acts from the next turn"))
            state = replace(state, queue=state.queue[:1] + waiting)
            if (
                self.encounter.after_kill == "next"
                and na.attack_number < 3
                and attacker.name not in moved
                and earns_extra_attack(na.attack_number, record.damage, record.life_before)
            ):
                number = na.attack_number + 1
                reason = (
                    f"{'second' if number == 2 else 'third'} attack: the hit felled {defender.name}; "
                    "the chain goes on to the next enemy faced"
                )
                events.append(ExtraAttack(attacker.name, None, number, reason, after_kill=True))
                return self._commit(replace(state, attack_number=number, target=None, reason=reason), events)
        elif earns_extra_attack(na.attack_number, record.damage, record.life_before):
            number = na.attack_number + 1
            share = "a third" if na.attack_number == 1 else "half"
            reason = (
                f"{'second' if number == 2 else 'third'} attack: the hit took {record.damage} of "
                f"{record.life_before} life, at least {share}"
            )
            events.append(ExtraAttack(attacker.name, defender.name, number, reason))
            return self._commit(replace(state, attack_number=number, target=defender.name, reason=reason), events)
        state = _advance(state, events, self.encounter.first, self.encounter.max_rounds)
        return self._commit(state, events)

    def recover(self, dice: Dice | None = None, *, faces: Any = None, points: int = 0) -> FightState:
        """The acting creature recovers instead of attacking (only before its first attack)."""
        na = self.next_action()
        if na is None:
            raise RuleError("fight", "the fight is over")
        if not na.can_recover:
            raise RuleError("recover", f"{na.actor} is in the middle of a chain of attacks and cannot recover now")
        s = self.state
        c = s.creature(na.actor)
        record = recover(c, dice, points=points, faces=faces)
        events: list[Event] = []
        if record.points:
            events.append(Spend(c.name, record.points, c.points_name, "recover", record.points_after))
        events.append(Recover(s.round, record))
        state = _with_creature(s, c.with_points(record.points_after).with_life(record.life_after))
        state = _advance(state, events, self.encounter.first, self.encounter.max_rounds)
        return self._commit(state, events)

    def auto_step(self, dice: Dice) -> FightState:
        """Let the acting creature follow its policy, with dice from ``dice``."""
        na = self.next_action()
        if na is None:
            raise RuleError("fight", "the fight is over")
        s = self.state
        actor = s.creature(na.actor)
        policy = self.encounter.policy(actor.name)
        if (
            na.can_recover
            and policy.recover_below
            and actor.life < policy.recover_below
            and actor.life < actor.max_life
        ):
            return self.recover(dice, points=min(policy.recover_spend, actor.points))
        target = na.default_target
        if self.encounter.target_rule(actor.name) == "weakest":
            target = min(na.targets, key=lambda n: (s.creature(n).life, na.targets.index(n)))
        defender = s.creature(target)
        return self.attack(
            dice,
            target=target,
            attack_points=min(policy.attack_spend, actor.points),
            defence_points=min(self.encounter.policy(target).defence_spend, defender.points),
        )

    def result(self) -> dict[str, Any]:
        s = self.state
        return {
            "finished": s.finished,
            "winner": s.winner,
            "rounds": s.round,
            "survivors": [c.name for c in s.creatures if c.alive],
            "creatures": [c.to_dict() for c in s.creatures],
        }


# -- seeded battles ------------------------------------------------------------------
def run_seed(seed: int, run: int) -> int:
    """The seed of run ``run`` of :func:`simulate_many` (see the module docstring)."""
    seed = check_int("seed", seed, 0, MAX_SEED)
    run = check_int("run", run, 0, 10**9)
    digest = hashlib.sha256(f"kostka-battle-v1:{seed}:{run}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big")


def simulate_battle(encounter: Encounter, seed: int | Dice) -> dict[str, Any]:
    """One whole fight played by the policies from ``seed``; the result and the full log."""
    dice = seed if isinstance(seed, Dice) else Dice(seed)
    fight = Fight(encounter)
    while not fight.finished:
        fight.auto_step(dice)
    return {"seed": dice.seed, **fight.result(), "log": fight.log}


def wilson_interval(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) for ``successes`` out of ``n``."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def simulate_many(encounter: Encounter, seed: int, runs: int = 1000) -> dict[str, Any]:
    """Monte Carlo summary of ``runs`` seeded battles (run ``i`` uses ``run_seed(seed, i)``)."""
    if not isinstance(encounter, Encounter):
        raise InputError("encounter", "type", "expected an Encounter")
    seed = check_int("seed", seed, 0, MAX_SEED)
    runs = check_int("runs", runs, 1, MAX_RUNS)
    wins = {"heroes": 0, "monsters": 0, None: 0}
    rounds: dict[int, int] = {}
    survivors = {c.name: 0 for c in encounter.creatures}
    for i in range(runs):
        fight = Fight(encounter)
        dice = Dice(run_seed(seed, i))
        while not fight.finished:
            fight.auto_step(dice)
        s = fight.state
        wins[s.winner] += 1
        rounds[s.round] = rounds.get(s.round, 0) + 1
        for c in s.creatures:
            if c.alive:
                survivors[c.name] += 1
    low, high = wilson_interval(wins["heroes"], runs)
    return {
        "seed": seed,
        "runs": runs,
        "hero_wins": wins["heroes"],
        "monster_wins": wins["monsters"],
        "unfinished": wins[None],
        "p_heroes_win": wins["heroes"] / runs,
        "p_heroes_win_ci95": [low, high],
        "rounds": {str(k): v for k, v in sorted(rounds.items())},
        "mean_rounds": sum(k * v for k, v in rounds.items()) / runs,
        "survivors": {k: v / runs for k, v in survivors.items()},
        "balance": encounter.balance().to_dict(),
    }
