"""Python's cyclic garbage collector and the static site's interpreter snapshot.

The snapshot holds an app for each language with every screen's objects: some 290,000 objects,
which each full collection walks (about 0.2 s in the browser's worker, whatever the player is
doing). :func:`freeze`, the snapshot's last step, moves them out of the collector's reach
(``gc.freeze``): a visitor's full collections walk only the objects made since the restore. The
apps of the languages not handed out are cyclic garbage from then on, which a frozen heap never
frees: :func:`collect_frozen`, once, in a still moment after the page has made all it makes ahead,
collects over everything and freezes what is left again.
"""

from __future__ import annotations

import gc

__all__ = ["collect_frozen", "freeze"]

#: Whether :func:`freeze` has frozen the heap and :func:`collect_frozen` has not run since.
_frozen = False


def freeze() -> None:
    """Collect the garbage, then keep every object left out of the collector's reach."""
    global _frozen
    gc.collect()
    gc.freeze()
    _frozen = True


def collect_frozen() -> bool:
    """Once after :func:`freeze`: collect over every object, the frozen ones included, and freeze
    what is left again. Whether it ran."""
    global _frozen
    if not _frozen:
        return False
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    _frozen = False
    return True
