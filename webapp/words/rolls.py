"""Rolls in words: the outcome and detail of each system's roll record, and free dice rolls and
their refusals, in the reader's language. No Panel import.
"""

from __future__ import annotations

from typing import Any

from engine import InputError
from engine.roller import MAX_CONSTANT, MAX_DICE, MAX_KEEP_DICE, MAX_KEEP_SIDES, MAX_PIPS, MAX_SIDES, MAX_TERMS

from ..i18n import N_, Translator, error_text
from ..state.gurps import GURPS_OUTCOMES
from ..state.log import LogEntry
from ..state.one_ring import OR_DEGREE_LABELS

__all__ = [
    "describe_fate_roll",
    "describe_gurps_roll",
    "describe_one_ring_roll",
    "dice_entry_texts",
    "dice_error_text",
    "faces_text",
    "favour_short_text",
    "tie_reading",
]


def describe_one_ring_roll(tr: Any, roll: Any) -> tuple[str, str]:
    """(outcome in words, detail line) for a roll record, in ``tr``'s language."""
    outcome = tr(OR_DEGREE_LABELS[str(roll.degree)])
    if roll.automatic == "gandalf":
        detail = tr(
            N_("Gandalf rune: automatic success, whatever the total; it has no margin (total {total}, TN {tn})."),
            total=roll.total,
            tn=roll.tn,
        )
    elif roll.automatic == "eye":
        detail = tr(
            N_(
                "Eye of Sauron while Miserable: automatic failure, whatever the total; it has no margin (total {total}, TN {tn})."
            ),
            total=roll.total,
            tn=roll.tn,
        )
    else:
        detail = tr(N_("Total {total} against TN {tn}: margin {m:+d}."), total=roll.total, tn=roll.tn, m=roll.margin)
    if roll.icons:
        detail += " " + tr(N_("Success icons: {n}."), n=roll.icons)
    return outcome, detail


def describe_gurps_roll(tr: Any, roll: Any) -> tuple[str, str]:
    """(outcome in words, detail line) for a GURPS success roll record, in ``tr``'s language."""
    outcome = tr(GURPS_OUTCOMES[str(roll.outcome)])
    if roll.margin >= 0:
        detail = tr(
            N_("Rolled {total} against effective skill {skill}: margin of success {m}."),
            total=roll.total,
            skill=roll.effective_skill,
            m=roll.margin,
        )
    else:
        detail = tr(
            N_("Rolled {total} against effective skill {skill}: margin of failure {m}."),
            total=roll.total,
            skill=roll.effective_skill,
            m=-roll.margin,
        )
    return outcome, detail


def describe_fate_roll(tr: Any, roll: Any) -> tuple[str, str]:
    """(outcome in words, detail line) for a Fate & Doom roll record, in ``tr``'s language."""
    outcome = tr(N_("Success")) if roll.success else tr(N_("Failure"))
    detail = tr(
        N_("2d6 = {dice}, difficulty {difficulty:+d}, favour spent {spent}: result {result} against skill {skill}."),
        dice=sum(roll.dice),
        difficulty=roll.check.difficulty,
        spent=roll.favour_spent,
        result=roll.result,
        skill=roll.skill,
    )
    if roll.margin == 0:
        detail += " " + (
            tr(N_("A tie succeeds (table option: ties succeed).")) if roll.success else tr(N_("A tie fails."))
        )
    elif roll.success:
        detail += " " + tr(N_("Margin {m}."), m=roll.margin)
    if not roll.success:
        detail += " " + favour_short_text(tr, roll.favour_short)
    return outcome, detail


def favour_short_text(tr: Any, n: int) -> str:
    """How much more favour would have turned a failed check into a success (the engine's
    :attr:`~engine.fate.check.FateRoll.favour_short`, which follows the tie reading in force)."""
    return tr.ngettext(
        "{n} more favour point would have made it a success.",
        "{n} more favour points would have made it a success.",
        n,
    )


def tie_reading(tr: Any, ties_succeed: bool) -> str:
    """The tie reading in force, in words (shown beside the check)."""
    if ties_succeed:
        return tr(N_("Table option in force: a result equal to the skill succeeds."))
    return tr(
        N_(
            "A result below the skill succeeds; a result equal to the skill fails, as in the rules' own example "
            "(skill 7, difficulty +2, dice 3 and 2: result 7, a failure)."
        )
    )


# -- free dice -----------------------------------------------------------------------------------


def dice_error_text(tr: Translator, error: InputError) -> str:
    """Why an expression cannot be rolled, in words a player understands."""
    what = (error.params or {}).get("what")
    if what == "empty":
        return tr(N_("Type dice such as 3d6, 2d6+3 or 4d6 keep 3."))
    if what == "syntax":
        return tr(N_("This cannot be read as dice: type dice such as 3d6, 2d6+3 or 4d6 keep 3."))
    if what == "dice":
        return tr(N_("Roll from 1 to {n} dice at a time."), n=MAX_DICE)
    if what == "sides":
        return tr(N_("A die has from 2 to {n} sides."), n=MAX_SIDES)
    if what == "pips":
        return tr(
            N_(
                "Too many dice for exact odds: the dice times their sides may come to at most {n} (e.g. 10d100 or 100d10)."
            ),
            n=MAX_PIPS,
        )
    if what == "keep":
        return tr(N_("Keep at least one die and no more than are rolled."))
    if what == "keep-size":
        return tr(
            N_("Keeping some of the dice works with at most {n} dice of at most {s} sides."),
            n=MAX_KEEP_DICE,
            s=MAX_KEEP_SIDES,
        )
    if what == "constant":
        return tr(N_("The numbers may add up to at most {n}."), n=MAX_CONSTANT)
    if what == "terms":
        return tr(N_("At most {n} kinds of dice in one roll."), n=MAX_TERMS)
    if what == "length":
        return tr(N_("The expression is too long."))
    return error_text(tr, error)


def faces_text(roll: Any) -> str:
    """The dice of a free dice roll, term by term ("3d6: 4 2 6; +3"), the dropped ones in brackets."""
    parts = []
    for term, faces, kept in zip(roll.terms, roll.faces, roll.kept, strict=True):
        shown = " ".join(str(f) if k else f"({f})" for f, k in zip(faces, kept, strict=True))
        parts.append(("−" if term.sign < 0 else "") + f"{term.text}: {shown}")
    if roll.constant:
        parts.append(f"{roll.constant:+d}")
    return "; ".join(parts)


def dice_entry_texts(tr: Translator, entry: LogEntry) -> tuple[str, str]:
    """(inputs, result) of a free dice roll as the log shows them."""
    roll = entry.roll
    inputs = f"{roll.expression}, {tr(N_('seed {seed}'), seed=entry.seed)}"
    return inputs, tr(N_("Total {total} ({faces})"), total=roll.total, faces=faces_text(roll))
