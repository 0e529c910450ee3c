"""The fight in words: the engine's fight events as sentences, a fight step in the log, the fight
screen's refusals and labels, in the reader's language. No Panel import.

:data:`WORDS` maps each event record of :mod:`engine.fate.events` to its words:
a message (its placeholders are the record's fields) or a function of the
translator, the event and what the sentence may need beyond it (a
:class:`Reading`: the creatures' sides, the attack before, the event after).
:func:`describe_events` puts a list of events (records, or their JSON as the
fight log and the roll log keep them) into sentences. The engine's own English
``reason`` texts are never shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from engine.fate import events as ev

from ..i18n import N_, Translator, error_text
from ..state.log import LogEntry

__all__ = [
    "AFTER_KILL_LABELS",
    "BALANCE_LABELS",
    "DUEL_VERDICT_LABELS",
    "HALVING_LABELS",
    "SIDE_LABELS",
    "WORDS",
    "Reading",
    "describe_events",
    "extra_attack_text",
    "fight_entry_texts",
    "fight_error_text",
    "no_extra_attack_text",
]

BALANCE_LABELS = {"easy": N_("easy"), "even": N_("even"), "hard": N_("hard"), "deadly": N_("deadly")}
#: Who a duel favours (:func:`engine.fate.duel.duel_verdict`), as the balance meter says it.
DUEL_VERDICT_LABELS = {
    "monster": N_("the monster is favoured"),
    "even": N_("even"),
    "hero": N_("the hero is favoured"),
}
SIDE_LABELS = {"heroes": N_("Heroes"), "monsters": N_("Monsters")}


@dataclass(frozen=True)
class Reading:
    """What an event's sentence may need beyond the event: the creatures' sides (name -> "heroes" or
    "monsters"), the attack last described, and the event that follows (``None`` at the end)."""

    sides: dict[str, str]
    last_attack: ev.Attack | None = None
    following: ev.Event | None = None


def _start(tr: Any, e: ev.Start, _: Reading) -> str:
    b = e.balance
    return tr(
        N_("The fight begins. Monsters' life {m} against heroes' maximum life {h}: {verdict}."),
        m=b.monsters_life,
        h=b.heroes_max_life,
        verdict=tr(BALANCE_LABELS[b.verdict]),
    )


def _turn(tr: Any, e: ev.Turn, _: Reading) -> str:
    msg = N_("Round {round}: the heroes' turn.") if e.side == "heroes" else N_("Round {round}: the monsters' turn.")
    return tr(msg, round=e.round)


def _spend(tr: Any, e: ev.Spend, _: Reading) -> str:
    if e.kind == "favour":
        return tr(
            N_("{creature} spends {points} favour ({left} left)."), creature=e.creature, points=e.points, left=e.left
        )
    return tr(
        N_("{creature} spends {points} stoutness ({left} left)."), creature=e.creature, points=e.points, left=e.left
    )


def _attack_text(tr: Any, e: ev.Attack) -> str:
    r = e.record
    a1, a2 = r.attack_faces
    d1, d2 = r.defence_faces
    parts = [
        tr(
            N_("{attacker} attacks {defender} (attack {n}): {a1}+{a2}, skill {skill:+d}, points {points} = {roll}"),
            attacker=r.attacker,
            defender=r.defender,
            n=e.attack_number,
            a1=a1,
            a2=a2,
            skill=r.attack_skill,
            points=r.attack_points,
            roll=r.attack_roll,
        )
    ]
    if r.halved and r.halving == "roll":
        parts.append(tr(N_("halved to {total} (the target stands in a defending position)"), total=r.attack_total))
    elif r.halved and r.halving == "dice":
        parts.append(
            tr(
                N_(
                    "with the dice and points halved before the skill: {total} (the target stands in a defending "
                    "position)"
                ),
                total=r.attack_total,
            )
        )
    parts.append(
        tr(
            N_("against {d1}+{d2}, skill {skill:+d}, points {points} = {defence}."),
            d1=d1,
            d2=d2,
            skill=r.defence_skill,
            points=r.defence_points,
            defence=r.defence_total,
        )
    )
    text = ", ".join(parts[:-1]) + " " + parts[-1]
    if r.halved and r.halving == "damage" and r.margin > 0:
        if r.hit:
            text += " " + tr(
                N_(
                    "Hit, its damage halved (the target stands in a defending position): {damage} damage, "
                    "life {before} → {after}."
                ),
                damage=r.damage,
                before=r.life_before,
                after=r.life_after,
            )
        else:
            text += " " + tr(N_("The hit is halved to no damage (the target stands in a defending position)."))
    elif r.hit:
        text += " " + tr(
            N_("Hit: {damage} damage, life {before} → {after}."),
            damage=r.damage,
            before=r.life_before,
            after=r.life_after,
        )
    else:
        text += " " + tr(N_("Parried."))
    return text


def _attack(tr: Any, e: ev.Attack, reading: Reading) -> list[str]:
    """The blow, and why no further attack follows when none does."""
    out = [_attack_text(tr, e)]
    if not isinstance(reading.following, ev.ExtraAttack):
        why = no_extra_attack_text(tr, e)
        if why:
            out.append(why)
    return out


def extra_attack_text(tr: Any, number: int, damage: int, life_before: int, after_kill: bool = False) -> str:
    if after_kill:
        if number == 2:
            return tr(N_("A second attack: the hit felled its target, so the chain goes on to the next enemy faced."))
        return tr(
            N_("A third attack, the last: the hit felled its target, so the chain goes on to the next enemy faced.")
        )
    if number == 2:
        return tr(
            N_("A second attack: the hit took {damage} of {life} life, at least a third."),
            damage=damage,
            life=life_before,
        )
    return tr(
        N_("A third attack, the last: the hit took {damage} of {life} life, at least half."),
        damage=damage,
        life=life_before,
    )


def _extra_attack(tr: Any, e: ev.ExtraAttack, reading: Reading) -> str:
    last = reading.last_attack
    damage = last.record.damage if last else 0
    life = last.record.life_before if last else 0
    return extra_attack_text(tr, e.attack_number, damage, life, e.after_kill)


def no_extra_attack_text(tr: Any, e: ev.Attack | dict[str, Any]) -> str:
    """Why a hit earned no further attack (``e`` an attack event, or its JSON)."""
    attack = ev.read_event(e)
    if not isinstance(attack, ev.Attack):
        raise TypeError(f"expected an attack event, got {attack.event!r}")
    r = attack.record
    if not r.hit:
        return tr(N_("The attack was parried: the turn passes on."))
    if r.life_after == 0:
        return ""
    if attack.attack_number >= 3:
        return tr(N_("That was the third attack, the last one."))
    if attack.attack_number == 1:
        return tr(N_("No second attack: {damage} is less than a third of {life}."), damage=r.damage, life=r.life_before)
    return tr(N_("No third attack: {damage} is less than half of {life}."), damage=r.damage, life=r.life_before)


def _position(tr: Any, e: ev.Position, reading: Reading) -> str:
    if e.origin == "defending":
        return tr(N_("{creature} steps up to the attacking position: it stood empty."), creature=e.creature)
    side = reading.sides.get(e.creature, "heroes")
    msg = (
        N_(
            "{creature} joins the attacking position of formation {n}: the heroes have more formations "
            "than the monsters, so the extra ones are broken up."
        )
        if side == "heroes"
        else N_(
            "{creature} joins the attacking position of formation {n}: the monsters have more formations "
            "than the heroes, so the extra ones are broken up."
        )
    )
    return tr(msg, creature=e.creature, n=1 if e.formation is None else e.formation)


def _recover(tr: Any, e: ev.Recover, _: Reading) -> str:
    r = e.record
    f1, f2 = r.faces
    return tr(
        N_("{creature} recovers: {f1}+{f2}, points {points} = {roll}; life {before} → {after}."),
        creature=r.creature,
        f1=f1,
        f2=f2,
        points=r.points,
        roll=r.roll,
        before=r.life_before,
        after=r.life_after,
    )


def _end(tr: Any, e: ev.End, _: Reading) -> str:
    if e.winner == "heroes":
        return tr(N_("The heroes win in round {round}."), round=e.round)
    if e.winner == "monsters":
        return tr(N_("The monsters win in round {round}."), round=e.round)
    return tr.ngettext(
        "No winner after {n} round: the fight is stopped.",
        "No winner after {n} rounds: the fight is stopped.",
        e.round,
    )


Words = str | Callable[[Any, Any, Reading], str | list[str]] | None

#: Each kind of event -> its words: a message whose placeholders are the event's fields, a function
#: ``(tr, event, reading)`` giving one sentence or several, or ``None`` (no words of its own).
WORDS: dict[type, Words] = {
    ev.Start: _start,
    ev.Turn: _turn,
    ev.Regen: N_("{creature} rests in a defending position and regains {gained} life ({life})."),
    ev.Spend: _spend,
    ev.Attack: _attack,
    ev.ExtraAttack: _extra_attack,
    ev.Waits: N_("{creature} was moved during its own side's turn: it acts from the next turn."),
    ev.Fall: N_("{creature} falls, struck by {by}, and leaves its position."),
    ev.Position: _position,
    ev.Recover: _recover,
    ev.RoundEnd: None,
    ev.End: _end,
}


def describe_events(tr: Any, events: list[Any], sides: dict[str, str] | None = None) -> list[str]:
    """Fight events (records or their JSON) as sentences in ``tr``'s language (``sides``: name -> side)."""
    records = [ev.read_event(e) for e in events]
    out: list[str] = []
    last_attack: ev.Attack | None = None
    for i, e in enumerate(records):
        words = WORDS[type(e)]
        if isinstance(words, str):
            out.append(tr(words, **{f.name: getattr(e, f.name) for f in fields(e)}))
        elif words is not None:
            following = records[i + 1] if i + 1 < len(records) else None
            said = words(tr, e, Reading(sides or {}, last_attack, following))
            out.extend([said] if isinstance(said, str) else said)
        if isinstance(e, ev.Attack):
            last_attack = e
    return out


#: The defending position's halving, in words (the option on the fight screen).
HALVING_LABELS = {
    "roll": N_("Halve the whole attack roll (2d6 + skill + points)"),
    "dice": N_("Halve only 2d6 + points, then add the skill"),
    "damage": N_("Roll in full, halve the damage of a hit"),
}
AFTER_KILL_LABELS = {
    "end": N_("A kill ends the chain of attacks"),
    "next": N_("After a kill the chain goes on to the next enemy faced"),
}


def fight_entry_texts(tr: Any, entry: LogEntry) -> tuple[str, str]:
    """(inputs, result) of a fight step in the roll log."""
    check = entry.check
    if check.get("action") == "recover":
        inputs = tr(N_("Fight, round {round}: {actor} recovers"), round=check["round"], actor=check["actor"])
    else:
        inputs = tr(
            N_("Fight, round {round}: {actor} attacks {target} (attack {n})"),
            round=check["round"],
            actor=check["actor"],
            target=check["target"],
            n=check["attack_number"],
        )
    if check.get("typed"):
        inputs += ", " + tr(N_("dice typed in"))
    events = [e for e in entry.roll.get("events", []) if e.get("event") not in ("round_end",)]
    return inputs, " ".join(describe_events(tr, events))


def fight_error_text(tr: Translator, error: Any) -> str:
    """A sentence for an error of the fight screen (encounter, duel or fight), in ``tr``'s language."""
    field = str(getattr(error, "field", ""))
    code = getattr(error, "code", "")
    params = dict(getattr(error, "params", {}) or {})
    if field.startswith("formations.") and code == "rule":
        side = params.get("side", "heroes")
        msg = (
            N_("Formation {n} of the heroes is empty: put a creature in it or remove it.")
            if side == "heroes"
            else N_("Formation {n} of the monsters is empty: put a creature in it or remove it.")
        )
        return tr(msg, n=params.get("formation", 1))
    if field in ("heroes", "monsters") and code == "range":
        return tr(N_("Put at least one hero and one monster into the formations."))
    if field == "name" and code == "rule":
        return tr(N_("The name {name} is on both sides; names must differ."), name=params.get("twice", ""))
    if field.endswith(".name") and code == "empty":
        return tr(N_("Every creature needs a name."))
    if field == "life" and params.get("live"):
        return tr(
            N_(
                "So much life and so many points make the exact odds too slow to follow live; "
                "lower them or use the simulation."
            )
        )
    if (
        field in ("attack_points", "defence_points", "hero_attack", "hero_defence", "monster_attack", "monster_defence")
        and code == "rule"
    ):
        return tr.ngettext("Only {n} point is held.", "Only {n} points are held.", params.get("held", 0))
    if field == "fight":
        return tr(N_("Start the fight first, or start a new one."))
    if field == "recover":
        return tr(N_("Recovering is only possible instead of a turn's first attack."))
    if field == "undo":
        return tr(N_("Nothing to undo."))
    if field == "run" and code == "rule":
        return tr(N_("Run the simulation first."))
    text = error_text(tr, error)
    parts = field.split(".")
    if len(parts) >= 3 and parts[0] in ("heroes", "monsters"):
        if field.endswith(".life") and code == "rule":
            return tr(N_("{name} has no life left and cannot fight."), name=parts[1])
        return f"{parts[1]}: {text}"
    if parts[0] in ("hero", "monster") and len(parts) == 2:
        who = tr(N_("Hero")) if parts[0] == "hero" else tr(N_("Monster"))
        return f"{who}: {text}"
    return text
