"""Three-way merges of what two tabs of one browser keep: lists of characters, fields, sets of rolls.

Two tabs of the app share the browser's storage. When one of them writes, the other merges what
storage now holds (*theirs*) into what it has (*ours*), from what it last knew storage held (the
*base*): a change made on one side only is taken; a change made on both sides to the same field
keeps ours (this tab's is the later write) and counts a conflict, so the caller can keep theirs
aside. Nothing here knows about Panel or the browser.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any, TypeVar

__all__ = ["Merged", "merge_fields", "merge_rows", "merge_sets"]

T = TypeVar("T")


@dataclass
class Merged:
    """A merged list: each item with the index it has in *ours* (``None``: new or changed here)."""

    items: list[tuple[Any, int | None]] = field(default_factory=list)
    #: How many items both sides changed in the same field (ours kept).
    conflicts: int = 0

    @property
    def values(self) -> list[Any]:
        return [value for value, _ in self.items]


def merge_fields(base: Any, ours: Any, theirs: Any) -> tuple[Any, bool]:
    """Merge two changed versions of one dict field by field; ``(merged, whether a field conflicted)``.

    A field changed on one side only takes that side's value; a field changed differently on both
    sides keeps ours. Anything that is not a dict is one field."""
    if ours == theirs:
        return ours, False
    if ours == base:
        return theirs, False
    if theirs == base:
        return ours, False
    if not (isinstance(base, dict) and isinstance(ours, dict) and isinstance(theirs, dict)):
        return ours, True
    merged: dict[str, Any] = {}
    conflict = False
    for key in [*ours, *(k for k in theirs if k not in ours)]:
        b, o, t = base.get(key, _ABSENT), ours.get(key, _ABSENT), theirs.get(key, _ABSENT)
        if o == t or t == b:
            value = o
        elif o == b:
            value = t
        else:
            value, conflict = o, True
        if value is not _ABSENT:
            merged[key] = value
    return merged, conflict


_ABSENT = object()


def _fates(base: Sequence[Any], other: Sequence[Any]) -> tuple[list[int | None], dict[int, list[int]]]:
    """Where each base item went in ``other`` (its index, ``None`` when removed), and the items
    ``other`` added, by the number of base items before them."""
    where: list[int | None] = [None] * len(base)
    added: dict[int, list[int]] = {}
    matcher = SequenceMatcher(None, [_key(x) for x in base], [_key(x) for x in other], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                where[i1 + k] = j1 + k
        elif tag == "replace":  # changed in place, as many as both sides have; the rest removed or added
            paired = min(i2 - i1, j2 - j1)
            for k in range(paired):
                where[i1 + k] = j1 + k
            added.setdefault(i1 + paired, []).extend(range(j1 + paired, j2))
        elif tag == "insert":
            added.setdefault(i1, []).extend(range(j1, j2))
    return where, added


def _key(value: Any) -> Hashable:
    return repr(value)


def merge_rows(base: Sequence[Any], ours: Sequence[Any], theirs: Sequence[Any]) -> Merged:
    """Merge two edited versions of a list of records (characters), aligned on the base.

    A record changed on one side takes that change (both: :func:`merge_fields`); one removed on a
    side is removed unless the other side changed it (nothing edited is lost); records added on
    either side are kept where they were added (ours first), an identical pair once."""
    in_ours, ours_added = _fates(base, ours)
    in_theirs, theirs_added = _fates(base, theirs)
    out = Merged()

    def add_new(position: int) -> None:
        mine = ours_added.get(position, [])
        for j in mine:
            out.items.append((ours[j], j))
        shown = [ours[j] for j in mine]
        for j in theirs_added.get(position, []):
            if theirs[j] not in shown:
                out.items.append((theirs[j], None))

    for i, record in enumerate(base):
        add_new(i)
        o, t = in_ours[i], in_theirs[i]
        if o is None and t is None:
            continue
        if o is None:
            if theirs[t] != record:  # removed here, changed there: the change is kept
                out.items.append((theirs[t], None))
            continue
        if t is None:
            if ours[o] != record:
                out.items.append((ours[o], o))
            continue
        value, conflict = merge_fields(record, ours[o], theirs[t])
        out.conflicts += conflict
        out.items.append((value, o if value == ours[o] else None))
    add_new(len(base))
    return out


def merge_sets(
    base: Sequence[T], ours: Sequence[T], theirs: Sequence[T], key: Callable[[T], Hashable] = lambda x: x
) -> list[T]:
    """Merge two edited versions of a collection of items known by ``key``: each item either side
    added is kept, each either side removed is gone; ours' order, then theirs' new items."""
    base_keys = {key(x) for x in base}
    ours_keys = {key(x) for x in ours}
    theirs_keys = {key(x) for x in theirs}
    kept = [x for x in ours if key(x) in theirs_keys or key(x) not in base_keys]
    seen = {key(x) for x in kept}
    for x in theirs:
        k = key(x)
        if k not in seen and k not in base_keys and k not in ours_keys:
            kept.append(x)
            seen.add(k)
    return kept
