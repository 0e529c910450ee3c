"""The roll log in words: each entry's inputs and result as plain text, in the reader's language.

No Panel import.
"""

from __future__ import annotations

from typing import Any

from ..i18n import N_, Translator
from ..state.forms import SYSTEM_TITLES
from ..state.gurps import GURPS_DEFENCES, GURPS_LABELS, GURPS_ROLLS
from ..state.log import LogEntry
from ..state.one_ring import OR_LABELS
from .fight import fight_entry_texts
from .rolls import describe_fate_roll, describe_gurps_roll, describe_one_ring_roll, dice_entry_texts

__all__ = [
    "GURPS_SHEET_ROLLS",
    "check_texts",
    "contest_winner_text",
    "entry_texts",
    "inputs_text",
    "log_rows",
    "result_text",
]

#: GURPS rolls off the sheet whose log name is a label to translate (Will, Per, Dodge, Parry, Block).
GURPS_SHEET_ROLLS = frozenset(GURPS_LABELS[k] for k in (*GURPS_ROLLS, *GURPS_DEFENCES))


def inputs_text(tr: Translator, entry: LogEntry) -> str:
    """What was rolled, as the log's *Inputs* column says it."""
    if entry.kind == "fight":
        return fight_entry_texts(tr, entry)[0]
    if entry.kind == "dice":
        return dice_entry_texts(tr, entry)[0]
    check = entry.check
    if entry.system == "one-ring":
        parts = [
            tr(OR_LABELS.get(entry.ability, entry.ability)),
            tr(N_("rating {r}"), r=check.rating),
            tr(N_("TN {tn}"), tn=check.tn),
        ]
        if check.bonus_dice:
            parts.append(tr(N_("bonus dice {n}"), n=check.bonus_dice))
        mode = str(check.feat_mode)
        if mode == "favoured":
            parts.append(tr(N_("Favoured")))
        elif mode == "ill_favoured":
            parts.append(tr(N_("Ill-favoured")))
        if check.weary:
            parts.append(tr(N_("Weary")))
        if check.miserable:
            parts.append(tr(N_("Miserable")))
        return ", ".join(parts)
    if entry.kind == "contest":
        kind = tr(N_("Quick contest")) if check.system == "gurps-quick" else tr(N_("Regular contest"))
        return f"{kind}: {entry.ability} {check.a} — {check.b}"
    if entry.system == "gurps":
        ability = tr(entry.ability) if entry.ability in GURPS_SHEET_ROLLS else entry.ability
        parts = [ability or tr(N_("Skill")), tr(N_("skill {s}"), s=check.skill)]
        if check.modifiers:
            parts.append(tr(N_("modifiers {mods}"), mods=" ".join(f"{m:+d}" for m in check.modifiers)))
        parts.append(tr(N_("effective {e}"), e=check.effective_skill))
        if check.defence:
            parts.append(tr(N_("Defence roll")))
        if entry.secret:
            parts.append(tr(N_("Secret GM roll")))
        return ", ".join(parts)
    parts = [tr(N_("skill {s}"), s=check.skill), tr(N_("difficulty {d:+d}"), d=check.difficulty)]
    if check.favour_spent:
        parts.append(tr(N_("favour spent {n}"), n=check.favour_spent))
    if check.ties_succeed:
        parts.append(tr(N_("ties succeed")))
    return ", ".join(parts)


def result_text(tr: Translator, entry: LogEntry) -> str:
    """What came of it, as the log's *Result* column says it (``hidden`` for an unrevealed secret roll)."""
    if entry.hidden:
        return tr(N_("hidden"))
    if entry.kind == "fight":
        return fight_entry_texts(tr, entry)[1]
    if entry.kind == "dice":
        return dice_entry_texts(tr, entry)[1]
    if entry.kind == "contest":
        return contest_winner_text(tr, entry.roll)
    outcome, detail = check_texts(tr, entry)
    return f"{outcome}. {detail}"


def contest_winner_text(tr: Translator, roll: Any) -> str:
    """Who won a contest, in words."""
    if roll.winner is None:
        return tr(N_("Nobody wins"))
    return tr(N_("You win")) if roll.winner == "a" else tr(N_("Opponent wins"))


def check_texts(tr: Translator, entry: LogEntry) -> tuple[str, str]:
    """(outcome, detail) of a check's roll in its system's words."""
    if entry.system == "one-ring":
        return describe_one_ring_roll(tr, entry.roll)
    if entry.system == "gurps":
        return describe_gurps_roll(tr, entry.roll)
    return describe_fate_roll(tr, entry.roll)


def entry_texts(tr: Translator, entry: LogEntry) -> tuple[str, str]:
    """(inputs, result) of a log entry as plain text, as the log shows them (no result: '')."""
    return inputs_text(tr, entry), (result_text(tr, entry) if entry.roll is not None or entry.hidden else "")


def log_rows(tr: Translator, entries: list[LogEntry]) -> list[tuple[str, str, str, str]]:
    """(time, character, inputs, result) for each entry, newest first, as plain text."""
    rows = []
    for entry in reversed(entries):
        who = entry.character or "—"
        if entry.session_code:
            who += " · " + tr(N_("Session {code}, roll no. {n}"), code=entry.session_code, n=entry.session_number)
        rows.append(
            (
                entry.time[11:],
                who,
                f"{tr(SYSTEM_TITLES.get(entry.system, N_('Free dice')))}: {inputs_text(tr, entry)}",
                result_text(tr, entry),
            )
        )
    return rows
