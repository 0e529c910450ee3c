"""The numbering report in words: names that look alike, shown so the game master can tell them apart.

A name that differs from another only in characters that look the same (``Gunnаr`` with a Cyrillic
``а`` beside ``Gunnar``) counts as the same character in the numbering
(:func:`engine.links.find_gaps`); on the screen the two spellings look identical, so each is shown
with the characters that set it apart, by their code points and Unicode names. No Panel import.
"""

from __future__ import annotations

import unicodedata

from ..i18n import Translator

__all__ = ["look_alikes_text", "telling_characters"]


def telling_characters(spelling: str, name: str) -> str:
    """The characters of ``spelling`` that ``name`` lacks, as ``U+0430 CYRILLIC SMALL LETTER A``."""
    odd = [c for c in dict.fromkeys(spelling) if c not in name]
    return ", ".join(f"U+{ord(c):04X} {unicodedata.name(c, '')}".rstrip() for c in odd)


def look_alikes_text(tr: Translator, name: str, spellings: tuple[str, ...]) -> str:
    """The warning for ``name``'s look-alike spellings (plain text: the caller escapes it)."""
    shown = "; ".join(
        f"{spelling} ({telling})" if (telling := telling_characters(spelling, name)) else spelling
        for spelling in spellings
    )
    return tr.ngettext(
        "written {n} other way that looks the same, counted as this character: {spellings}",
        "written {n} other ways that look the same, counted as this character: {spellings}",
        len(spellings),
        spellings=shown,
    )
