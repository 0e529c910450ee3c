"""The canonical form of a check: the numbers its roll uses, not the way they were written.

A session roll's seed binds the check (:func:`engine.links.session_roll_seed`). Bound as written,
checks that roll the same would get different dice at one number: a GURPS skill 12 with the
modifiers ``-6, +6``, ``-8, +9, -1`` or none, or ``1d6+1d6+3`` for ``2d6+3``, and a player holding
the session code could pick among them the one whose dice they like. Bound by this form, every
way of writing one roll gets the same dice, and only a check that rolls differently gets others.

Per system, exactly what changes the dice drawn or what they mean:

- **The One Ring**: the number of success dice (rating + bonus dice), the TN, the feat mode
  (one feat die or two, and which is kept), Weary (only with success dice to weary) and
  Miserable;
- **GURPS success roll**: the effective skill (base skill + modifiers). Not ``defence``: it
  only lets a roll below effective skill 3 be made, and changes nothing of one that is made;
- **GURPS quick contest**: both effective skills, in order (A rolls first);
- **GURPS regular contest**: the skills rolled against, after the high-skill rule (the rule's
  switch matters only when it lowers them);
- **Fate & Doom**: the skill and the modifier added to 2d6 (difficulty − favour spent). Not
  the favour held: it only bounds the spend; nor whether a tie succeeds: a table's option, shown
  in the link, that reads the same dice (bound, switching it would be one more try at the dice);
- **free dice**: the expression's distribution written one way
  (:attr:`engine.roller.DiceExpression.canonical`: ``1d6+3+1d6`` is ``2d6+3``), rolled in that
  order (:meth:`~engine.roller.DiceExpression.roll_canonical`).

The form is a tuple of integers; :func:`engine.links.session_roll_seed` writes it after the
system's number.
"""

from __future__ import annotations

from typing import Any

from . import fate, gurps, one_ring
from .errors import InputError
from .roller import DiceExpression

__all__ = ["canonical_form"]

_FEAT_MODES = tuple(one_ring.FeatMode)
_KEEP_MODES = {(False, False): 0, (True, False): 1, (True, True): 2}


def _one_ring(check: one_ring.OneRingCheck) -> tuple[int, ...]:
    dice = check.success_dice
    weary = check.weary and dice > 0
    return (dice, check.tn, _FEAT_MODES.index(check.feat_mode), int(weary), int(check.miserable))


def _gurps(check: gurps.GurpsCheck) -> tuple[int, ...]:
    return (check.effective_skill,)


def _quick(contest: gurps.QuickContest) -> tuple[int, ...]:
    return (contest.a, contest.b)


def _regular(contest: gurps.RegularContest) -> tuple[int, ...]:
    return contest.adjusted_skills


def _fate(check: fate.FateCheck) -> tuple[int, ...]:
    return (check.skill, check.modifier)


def _dice(expression: DiceExpression) -> tuple[int, ...]:
    canonical = expression.canonical
    out = [canonical.constant]
    for t in canonical.terms:
        out += (t.count, t.sides, _KEEP_MODES[t.keep is not None, t.lowest], t.keep or 0)
    return tuple(out)


_FORMS: dict[type, Any] = {
    one_ring.OneRingCheck: _one_ring,
    gurps.GurpsCheck: _gurps,
    gurps.QuickContest: _quick,
    gurps.RegularContest: _regular,
    fate.FateCheck: _fate,
    DiceExpression: _dice,
}


def canonical_form(check: Any) -> tuple[int, ...]:
    """The numbers ``check``'s roll uses (see the module docstring); equal for equivalent checks."""
    try:
        form = _FORMS[type(check)]
    except KeyError:
        raise InputError("check", "type", f"not a check of a known system: {type(check).__name__}") from None
    return tuple(form(check))
