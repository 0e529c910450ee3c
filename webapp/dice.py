"""Dice drawn as inline SVG, built from numbers only.

Every function takes die faces (ints) and already-translated labels; labels
are escaped, so nothing a user typed can become markup. No Panel import.
"""

from __future__ import annotations

from html import escape

__all__ = ["d6_pips", "dice_row", "feat_die", "success_die"]

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
