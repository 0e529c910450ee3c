"""What the result panel says of a log entry: its dice drawn as dice, the ability, the outcome in
words with its colour, the margin or degree, and the chance the check had. No Panel import."""

from __future__ import annotations

from html import escape
from typing import Any

import engine
from engine import InputError

from ..i18n import N_, Translator, percent
from ..state.gurps import GURPS_OUTCOMES
from ..state.one_ring import OR_DEGREE_LABELS, OR_LABELS
from .dice import d6_pips, dice_html, dice_row
from .log import GURPS_SHEET_ROLLS, check_texts, contest_winner_text, entry_texts

__all__ = ["ability_text", "chance_of", "check_ability_text", "dice_of", "next_odds", "outcome_of"]


def _d6s(tr: Translator, faces: Any, caption: str) -> str:
    return dice_row([d6_pips(int(f), label=tr(N_("Die showing {face}"), face=int(f))) for f in faces], caption)


def _number_die(face: int, label: str) -> str:
    return (
        f'<svg class="die" role="img" aria-label="{escape(label)}" width="56" height="56" viewBox="0 0 56 56" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(label)}</title>'
        '<rect x="3" y="3" width="50" height="50" rx="9" class="body"/>'
        f'<text x="28" y="37" text-anchor="middle" class="num">{int(face)}</text></svg>'
    )


def _free_dice_html(tr: Translator, roll: Any) -> str:
    rows = []
    for term, faces, kept in zip(roll.terms, roll.faces, roll.kept, strict=True):
        dice = []
        for face, keep in zip(faces, kept, strict=True):
            label = tr(N_("Die showing {face}"), face=int(face))
            svg = d6_pips(int(face), label=label) if term.sides == 6 else _number_die(face, label)
            dice.append(svg if keep else svg.replace('class="die', 'class="die dropped', 1))
        rows.append(dice_row(dice, ("−" if term.sign < 0 else "") + term.text))
    return "".join(rows)


def _fight_attack(entry: Any) -> dict[str, Any] | None:
    return next((e for e in entry.roll.get("events", []) if e.get("event") == "attack"), None)


def dice_of(tr: Translator, entry: Any) -> str:
    """The entry's dice as SVG (empty for a hidden secret roll or a step without dice)."""
    if entry.hidden or entry.roll is None:
        return ""
    if entry.kind == "fight":
        attack = _fight_attack(entry)
        if attack is None:
            return ""
        return _d6s(tr, attack["attack_faces"], tr(N_("Attack: {name}"), name=attack["attacker"])) + _d6s(
            tr, attack["defence_faces"], tr(N_("Defence: {name}"), name=attack["defender"])
        )
    if entry.kind == "dice":
        return _free_dice_html(tr, entry.roll)
    try:
        return dice_html(tr, entry.roll)
    except (KeyError, TypeError, ValueError):
        return ""


def ability_text(tr: Translator, entry: Any) -> str:
    if entry.kind in ("fight", "dice"):
        return ""
    return check_ability_text(tr, entry.system, entry.ability)


def check_ability_text(tr: Translator, system: str, ability: str) -> str:
    """What a check of ``system`` rolls, in words ("Awareness"), from the ability it carries."""
    if system == "one-ring":
        return tr(OR_LABELS.get(ability, ability))
    if system == "gurps" and ability in GURPS_SHEET_ROLLS:
        return tr(ability)
    if system == "fate":  # Fate & Doom's check rolls the one skill
        return tr(N_("Skill"))
    return ability


def outcome_of(tr: Translator, entry: Any) -> tuple[str, str, str]:
    """(outcome in words, its colour class 'good'/'bad'/'', the margin or degree in a line) of a log entry."""
    if entry.hidden:
        return tr(N_("Secret roll: hidden until the GM reveals it.")), "", ""
    roll = entry.roll
    if entry.kind == "fight":
        attack = _fight_attack(entry)
        detail = entry_texts(tr, entry)[1]
        if attack is None:
            return detail, "", ""
        if attack["hit"]:
            return tr(N_("Hit: {damage} damage"), damage=attack["damage"]), "good", detail
        return tr(N_("Parried")), "bad", detail
    if entry.kind == "dice":
        return tr(N_("Total {total}"), total=roll.total), "", ""
    if entry.kind == "contest":
        colour = "" if roll.winner is None else "good" if roll.winner == "a" else "bad"
        details = []
        if roll.winner is not None and hasattr(roll, "margin_of_victory"):
            details.append(tr(N_("Margin of victory: {m}."), m=roll.margin_of_victory))
        rounds = len(getattr(roll, "rounds", ()) or ())
        if rounds > 1:  # (the dice shown are the last round's)
            details.append(tr(N_("Decided in round {n}."), n=rounds))
        return contest_winner_text(tr, roll), colour, " ".join(details)
    outcome, detail = check_texts(tr, entry)
    return outcome, "good" if roll.success else "bad", detail


def chance_of(tr: Translator, entry: Any) -> str:
    """ "You had a 70.9 % chance": the exact odds the check had before it was rolled ('' if none)."""
    if entry.hidden or entry.kind not in ("roll", "contest", "dice"):
        return ""
    try:
        if entry.kind == "dice":
            total = entry.roll.total
            p = entry.check.odds().prob_where(lambda t: t >= total)
            return tr(N_("Chance of {total} or more: {p}"), total=entry.roll.total, p=percent(p))
        odds = engine.odds_of(entry.check)
    except (InputError, AttributeError, TypeError, ZeroDivisionError):
        return ""
    if entry.kind == "contest":
        p = getattr(odds, "p_a_wins", None)
        return "" if p is None else tr(N_("You had a {p} chance to win"), p=percent(p))
    p = getattr(odds, "p_success", None)
    return "" if p is None else tr(N_("You had a {p} chance"), p=percent(p))


def next_odds(tr: Translator, system: str, desk: Any) -> tuple[str, Any, list[tuple[str, str, Any]]] | None:
    """The check being set up on ``system``'s screen, as the result panel charts it: (what it rolls,
    its chance of success, [(outcome key, outcome in words, chance), ...] from worst to best), or None
    while the inputs make no check."""
    odds = getattr(desk, "odds", None)
    if odds is None or getattr(desk, "check", None) is None:
        return None
    if system == "one-ring":
        what = tr(OR_LABELS.get(desk.ability, desk.ability))
        parts = [(str(d), tr(OR_DEGREE_LABELS[str(d)]), p) for d, p in odds.degrees.items()]
        return what, odds.p_success, parts
    if system == "gurps":
        name = desk.ability_name()
        what = tr(name) if name in GURPS_SHEET_ROLLS else name or tr(N_("Skill"))
        order = ("critical_failure", "failure", "success", "critical_success")
        outcomes = {str(o): p for o, p in odds.outcomes.items()}
        return what, odds.p_success, [(o, tr(GURPS_OUTCOMES[o]), outcomes.get(o, 0)) for o in order]
    if system == "fate":
        parts = [("failure", tr(N_("Failure")), odds.p_failure), ("success", tr(N_("Success")), odds.p_success)]
        return tr(N_("Skill")), odds.p_success, parts
    return None
