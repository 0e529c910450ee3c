"""The confusable skeleton of a name: what it looks like, not how it is spelt.

Two names that look the same have one skeleton: ``Gunnаr`` with a Cyrillic ``а`` and ``Gunnar``
with a Latin ``a`` are one character to a game master reading the log, so session rolls bind a
name by its skeleton (:func:`engine.links.session_roll_seed`) and the numbering counts names by it
(:func:`engine.links.find_gaps`). Otherwise a player could get other dice at the same number, and a
numbering of its own, with a name that only looks like their character's.

:func:`skeleton` is ``skeleton()`` of Unicode Technical Standard #39 (section 4, "Confusable
Detection"): NFD, drop the default-ignorable code points (invisible: the zero-width joiners a
name may hold, variation selectors), replace each code point by its prototype in Unicode's
confusables data, NFD again. The data (:mod:`engine._confusables`, Unicode 13.0.0) is generated
by ``kostka_build/confusables.py``, restricted to prototypes in the Latin, Greek and Cyrillic
scripts and common punctuation and digits; names in other scripts compare by their NFD form.

A skeleton is for comparing names, never for showing them (``Gunnar`` becomes ``Gunnar``, but
``m`` becomes ``rn`` and ``0`` becomes ``O``).
"""

from __future__ import annotations

import unicodedata
from functools import cache

from ._confusables import TABLE, UNICODE_VERSION

__all__ = ["UNICODE_VERSION", "default_ignorable", "skeleton"]

#: Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt).
_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def default_ignorable(char: str) -> bool:
    """Whether ``char`` is a default-ignorable code point (shown as nothing at all)."""
    code = ord(char)
    return any(low <= code <= high for low, high in _IGNORABLE)


@cache
def _prototypes() -> dict[str, str]:
    out = {}
    for pair in TABLE.split():
        source, prototype = pair.split(":")
        out[chr(int(source, 16))] = "".join(chr(int(c, 16)) for c in prototype.split("."))
    return out


def skeleton(text: str) -> str:
    """The UTS #39 skeleton of ``text`` (see the module docstring): equal for names that look alike."""
    table = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(table.get(c, c) for c in decomposed if not default_ignorable(c))
    return unicodedata.normalize("NFD", mapped)
