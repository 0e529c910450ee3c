"""Dice drawn as inline SVG, built from numbers only.

Every function takes die faces (ints) and already-translated labels; labels
are escaped, so nothing a user typed can become markup. No Panel import.
"""

from __future__ import annotations

from html import escape
from typing import Any

from engine import one_ring

from ..i18n import N_, Translator
from .rolls import faces_text

__all__ = [
    "d6_pips",
    "dice_faces_html",
    "dice_html",
    "dice_row",
    "feat_die",
    "feat_label",
    "one_ring_dice_html",
    "success_die",
]

_SIZE = 56
# Pip positions on a 56 px die (x, y) for faces 1..6.
_PIPS = {
    1: [(28, 28)],
    2: [(16, 16), (40, 40)],
    3: [(16, 16), (28, 28), (40, 40)],
    4: [(16, 16), (40, 16), (16, 40), (40, 40)],
    5: [(16, 16), (40, 16), (28, 28), (16, 40), (40, 40)],
    6: [(16, 14), (40, 14), (16, 28), (40, 28), (16, 42), (40, 42)],
}


def _svg(body: str, label: str, css: str = "", size: int = _SIZE) -> str:
    return (
        f'<svg class="die {css}" role="img" aria-label="{escape(label)}" width="{size}" height="{size}" '
        f'viewBox="0 0 {_SIZE} {_SIZE}" xmlns="http://www.w3.org/2000/svg"><title>{escape(label)}</title>{body}</svg>'
    )


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("die faces are ints")
    return value


def feat_die(face: int, *, label: str, kept: bool | None = None) -> str:
    """A Feat die: 1–10 as a number, 0 as the Eye of Sauron, 11 as the Gandalf rune.

    ``kept`` True draws the die as the one that counts, False dims it (the
    other of two feat dice), None for a single die.
    """
    face = _int(face)
    shape = '<polygon points="28,2 52,16 52,40 28,54 4,40 4,16" class="body"/>'
    if face == 0:  # the Eye of Sauron: a lidless red eye
        mark = (
            '<path d="M8,28 Q28,8 48,28 Q28,48 8,28 Z" fill="#b3261e" stroke="#5a0d09" stroke-width="2"/>'
            '<ellipse cx="28" cy="28" rx="3.2" ry="10" fill="#1a0503"/>'
        )
    elif face == 11:  # the Gandalf rune (a Cirth-style G: a stave with two branches)
        mark = (
            '<path d="M22,12 L22,44 M22,20 L36,12 M22,30 L36,22 M34,34 L38,44" '
            'stroke="#0b5cad" stroke-width="4.5" stroke-linecap="round" fill="none"/>'
        )
    else:
        mark = f'<text x="28" y="36" text-anchor="middle" class="num">{face}</text>'
    css = "feat" + (" kept" if kept else " dropped" if kept is False else "")
    return _svg(shape + mark, label, css)


def success_die(face: int, *, label: str, weary: bool = False) -> str:
    """A Success die: 1–3 drawn outlined (they count 0 when Weary), 6 with the success icon."""
    face = _int(face)
    shape = '<rect x="3" y="3" width="50" height="50" rx="9" class="body"/>'
    if face <= 3:
        mark = f'<text x="28" y="37" text-anchor="middle" class="num outlined">{face}</text>'
    else:
        mark = f'<text x="{22 if face == 6 else 28}" y="37" text-anchor="middle" class="num">{face}</text>'
    if face == 6:  # the success icon: an Elvish-style star rune in the corner
        mark += (
            '<path d="M42,8 L42,26 M35,12 L49,22 M49,12 L35,22" stroke="#0b5cad" '
            'stroke-width="3" stroke-linecap="round"/>'
        )
    css = "success" + (" weary-zero" if weary and face <= 3 else "") + (" icon" if face == 6 else "")
    return _svg(shape + mark, label, css)


def d6_pips(face: int, *, label: str, css: str = "") -> str:
    """An ordinary d6 with pips (GURPS 3d6, Fate & Doom 2d6)."""
    face = _int(face)
    pips = "".join(f'<circle cx="{x}" cy="{y}" r="5" class="pip"/>' for x, y in _PIPS.get(face, []))
    return _svg('<rect x="3" y="3" width="50" height="50" rx="9" class="body"/>' + pips, label, ("d6 " + css).strip())


def dice_row(dice_svgs: list[str], caption: str = "") -> str:
    cap = f'<span class="dice-caption">{escape(caption)}</span>' if caption else ""
    return f'<div class="dice-row">{cap}{"".join(dice_svgs)}</div>'


# -- the dice of a roll record ---------------------------------------------------------------------


def feat_label(tr: Any, face: int) -> str:
    if face == one_ring.EYE:
        return tr(N_("Eye of Sauron"))
    if face == one_ring.GANDALF:
        return tr(N_("Gandalf rune"))
    return tr(N_("Feat die {face}"), face=face)


def one_ring_dice_html(tr: Any, roll: Any) -> str:
    """The feat and success dice of a One Ring roll record, the kept feat die framed."""
    two = len(roll.feat_dice) > 1
    feats = [
        feat_die(
            face,
            label=feat_label(tr, face) + (" — " + tr(N_("kept")) if two and i == roll.kept else ""),
            kept=(i == roll.kept) if two else None,
        )
        for i, face in enumerate(roll.feat_dice)
    ]
    weary = roll.check.weary
    successes = [
        success_die(
            face,
            label=tr(N_("Success die {face}"), face=face) + (" — " + tr(N_("success icon")) if face == 6 else ""),
            weary=weary,
        )
        for face in roll.success_dice
    ]
    html = dice_row(feats, tr(N_("Feat dice")) if two else tr(N_("Feat die")))
    if successes:
        html += dice_row(successes, tr(N_("Success dice")))
    return html


def dice_html(tr: Translator, roll: Any) -> str:
    """The dice of any roll record, drawn as dice (faces are integers from the engine)."""
    system = getattr(roll.check, "system", "") if hasattr(roll, "check") else ""
    data = roll.to_dict()
    system = data.get("system", system)

    def d6s(faces: Any, caption: str) -> str:
        return dice_row([d6_pips(int(f), label=tr(N_("Die showing {face}"), face=int(f))) for f in faces], caption)

    if system == "one-ring":
        return one_ring_dice_html(tr, roll)
    if system == "gurps":
        return d6s(data["dice"], "3d6")
    if system == "gurps-quick":
        return d6s(data["dice_a"], tr(N_("You"))) + d6s(data["dice_b"], tr(N_("Opponent")))
    if system == "gurps-regular":
        last = data["rounds"][-1]
        return d6s(last["dice_a"], tr(N_("You"))) + d6s(last["dice_b"], tr(N_("Opponent")))
    if system == "fate":
        return d6s(data["dice"], "2d6")
    if system == "dice":
        return dice_faces_html(tr, roll)
    return ""


def dice_faces_html(tr: Translator, roll: Any) -> str:
    """Every die of a free dice roll as a number (the ones not kept in brackets), and the total."""
    total = escape(tr(N_("Total {total}"), total=roll.total))
    return (
        f'<div class="readout" data-testid="dice-faces">{escape(faces_text(roll))}</div>'
        f'<div class="readout" data-testid="dice-faces-total">{total}</div>'
    )
