"""The fight in words: the engine's fight events as sentences, a fight step in the log, the fight
screen's refusals and labels, in the reader's language (the engine's own English ``reason`` texts
are never shown). No Panel import.
"""

from __future__ import annotations

from typing import Any

from ..i18n import N_, Translator, error_text
from ..state.log import LogEntry

__all__ = [
    "AFTER_KILL_LABELS",
    "BALANCE_LABELS",
    "HALVING_LABELS",
    "SIDE_LABELS",
    "describe_events",
    "extra_attack_text",
    "fight_entry_texts",
    "fight_error_text",
    "no_extra_attack_text",
]

BALANCE_LABELS = {"easy": N_("easy"), "even": N_("even"), "hard": N_("hard"), "deadly": N_("deadly")}
SIDE_LABELS = {"heroes": N_("Heroes"), "monsters": N_("Monsters")}


def _spend_text(tr: Any, e: dict[str, Any]) -> str:
    if e["kind"] == "favour":
        return tr(
            N_("{creature} spends {points} favour ({left} left)."),
            creature=e["creature"],
            points=e["points"],
            left=e["left"],
        )
    return tr(
        N_("{creature} spends {points} stoutness ({left} left)."),
        creature=e["creature"],
        points=e["points"],
        left=e["left"],
    )


def _attack_text(tr: Any, e: dict[str, Any]) -> str:
    a1, a2 = e["attack_faces"]
    d1, d2 = e["defence_faces"]
    parts = [
        tr(
            N_("{attacker} attacks {defender} (attack {n}): {a1}+{a2}, skill {skill:+d}, points {points} = {roll}"),
            attacker=e["attacker"],
            defender=e["defender"],
            n=e.get("attack_number", 1),
            a1=a1,
            a2=a2,
            skill=e["attack_skill"],
            points=e["attack_points"],
            roll=e["attack_roll"],
        )
    ]
    halving = e.get("halving", "roll")
    if e["halved"] and halving == "roll":
        parts.append(tr(N_("halved to {total} (the target stands in a defending position)"), total=e["attack_total"]))
    elif e["halved"] and halving == "dice":
        parts.append(
            tr(
                N_(
                    "with the dice and points halved before the skill: {total} (the target stands in a defending "
                    "position)"
                ),
                total=e["attack_total"],
            )
        )
    parts.append(
        tr(
            N_("against {d1}+{d2}, skill {skill:+d}, points {points} = {defence}."),
            d1=d1,
            d2=d2,
            skill=e["defence_skill"],
            points=e["defence_points"],
            defence=e["defence_total"],
        )
    )
    text = ", ".join(parts[:-1]) + " " + parts[-1]
    if e["halved"] and halving == "damage" and e["margin"] > 0:
        if e["hit"]:
            text += " " + tr(
                N_(
                    "Hit, its damage halved (the target stands in a defending position): {damage} damage, "
                    "life {before} → {after}."
                ),
                damage=e["damage"],
                before=e["life_before"],
                after=e["life_after"],
            )
        else:
            text += " " + tr(N_("The hit is halved to no damage (the target stands in a defending position)."))
    elif e["hit"]:
        text += " " + tr(
            N_("Hit: {damage} damage, life {before} → {after}."),
            damage=e["damage"],
            before=e["life_before"],
            after=e["life_after"],
        )
    else:
        text += " " + tr(N_("Parried."))
    return text


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


def no_extra_attack_text(tr: Any, e: dict[str, Any]) -> str:
    """Why a hit earned no further attack."""
    if not e["hit"]:
        return tr(N_("The attack was parried: the turn passes on."))
    if e["life_after"] == 0:
        return ""
    if e.get("attack_number", 1) >= 3:
        return tr(N_("That was the third attack, the last one."))
    if e.get("attack_number", 1) == 1:
        return tr(
            N_("No second attack: {damage} is less than a third of {life}."), damage=e["damage"], life=e["life_before"]
        )
    return tr(N_("No third attack: {damage} is less than half of {life}."), damage=e["damage"], life=e["life_before"])


def describe_events(tr: Any, events: list[dict[str, Any]], sides: dict[str, str] | None = None) -> list[str]:
    """The engine's fight events as sentences in ``tr``'s language (``sides``: name -> side)."""
    out: list[str] = []
    last_attack: dict[str, Any] | None = None
    extra_follows = False
    for i, e in enumerate(events):
        kind = e.get("event")
        if kind == "start":
            b = e["balance"]
            out.append(
                tr(
                    N_("The fight begins. Monsters' life {m} against heroes' maximum life {h}: {verdict}."),
                    m=b["monsters_life"],
                    h=b["heroes_max_life"],
                    verdict=tr(BALANCE_LABELS[b["verdict"]]),
                )
            )
        elif kind == "turn":
            msg = (
                N_("Round {round}: the heroes' turn.")
                if e["side"] == "heroes"
                else N_("Round {round}: the monsters' turn.")
            )
            out.append(tr(msg, round=e["round"]))
        elif kind == "regen":
            out.append(
                tr(
                    N_("{creature} rests in a defending position and regains {gained} life ({life})."),
                    creature=e["creature"],
                    gained=e["gained"],
                    life=e["life"],
                )
            )
        elif kind == "spend":
            out.append(_spend_text(tr, e))
        elif kind == "attack":
            last_attack = e
            out.append(_attack_text(tr, e))
            extra_follows = any(x.get("event") == "extra_attack" for x in events[i + 1 : i + 2])
            if not extra_follows:
                why = no_extra_attack_text(tr, e)
                if why:
                    out.append(why)
        elif kind == "extra_attack":
            damage = last_attack["damage"] if last_attack else 0
            life = last_attack["life_before"] if last_attack else 0
            out.append(extra_attack_text(tr, e["attack_number"], damage, life, bool(e.get("after_kill"))))
        elif kind == "waits":
            out.append(
                tr(
                    N_("{creature} was moved during its own side's turn: it acts from the next turn."),
                    creature=e["creature"],
                )
            )
        elif kind == "fall":
            out.append(
                tr(N_("{creature} falls, struck by {by}, and leaves its position."), creature=e["creature"], by=e["by"])
            )
        elif kind == "position":
            if e["from"] == "defending":
                out.append(
                    tr(N_("{creature} steps up to the attacking position: it stood empty."), creature=e["creature"])
                )
            else:
                side = (sides or {}).get(e["creature"], "heroes")
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
                out.append(tr(msg, creature=e["creature"], n=e.get("formation", 1)))
        elif kind == "recover":
            f1, f2 = e["faces"]
            out.append(
                tr(
                    N_("{creature} recovers: {f1}+{f2}, points {points} = {roll}; life {before} → {after}."),
                    creature=e["creature"],
                    f1=f1,
                    f2=f2,
                    points=e["points"],
                    roll=e["roll"],
                    before=e["life_before"],
                    after=e["life_after"],
                )
            )
        elif kind == "end":
            if e.get("winner") == "heroes":
                out.append(tr(N_("The heroes win in round {round}."), round=e["round"]))
            elif e.get("winner") == "monsters":
                out.append(tr(N_("The monsters win in round {round}."), round=e["round"]))
            else:
                out.append(
                    tr.ngettext(
                        "No winner after {n} round: the fight is stopped.",
                        "No winner after {n} rounds: the fight is stopped.",
                        e["round"],
                    )
                )
    return out


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
