"""Bokeh reads the signature of every callback attached to a model (``inspect.signature``), and
Panel attaches one to each property it links, some twenty a widget, and one to each event, each
time a model is made: about a fifth of making a number field's model. Panel's callbacks are partials
of a method of its class, whose signature is the same for every model; :func:`check_signatures_once`
has Bokeh read each such signature once. Any other callback is read each time, as before. (The
private names relied on are listed in ``kostka_build/internals.py``.)"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from bokeh.util import callback_manager

__all__ = ["check_signatures_once"]

_bokeh_check: Callable[..., None] = callback_manager._check_callback
_bokeh_nargs: Callable[[Any], int] = callback_manager._nargs
#: The partials of methods whose signature was found right, with the arguments they are called with.
_checked: set[tuple[Any, ...]] = set()
#: The number of arguments the partials of methods take, as read.
_nargs_read: dict[tuple[Any, ...], int] = {}


def _signature_key(callback: Any) -> tuple[Any, ...] | None:
    """What a partial of a bound method's signature depends on: the method's function, the number of
    arguments the partial gives and the names of its keywords. None for any other callback."""
    if type(callback) is not functools.partial:
        return None
    method = callback.func
    function = getattr(method, "__func__", None)
    if function is None or getattr(method, "__self__", None) is None:
        return None
    return (function, len(callback.args), frozenset(callback.keywords))


def _check_callback(callback: Any, fargs: Sequence[str], what: str = "Callback functions") -> None:
    key = _signature_key(callback)
    if key is None:
        _bokeh_check(callback, fargs, what)
        return
    key = (*key, tuple(fargs))
    if key not in _checked:
        _bokeh_check(callback, fargs, what)  # raises if the signature is wrong: not remembered
        _checked.add(key)


def _nargs(callback: Any) -> int:
    key = _signature_key(callback)
    if key is None:
        return _bokeh_nargs(callback)
    if key not in _nargs_read:
        _nargs_read[key] = _bokeh_nargs(callback)
    return _nargs_read[key]


def check_signatures_once() -> None:
    """From now on, Bokeh reads the signature of a partial of a method once (see the module)."""
    callback_manager._check_callback = _check_callback
    callback_manager._nargs = _nargs
