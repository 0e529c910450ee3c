"""A Babel extractor that finds ``N_("...")`` and ``ngettext("…", "…", n)`` calls anywhere, f-strings included.

Babel's own Python extractor does not look inside f-string expressions on
Python < 3.12; walking the syntax tree does, on every version. Used by
``babel.cfg``: ``pybabel extract -F babel.cfg -o webapp/locale/kostka.pot webapp``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any

KEYWORDS = ("N_",)
#: Messages with a count: ``tr.ngettext("{n} try", "{n} tries", n)`` (a method or a plain function).
PLURAL_KEYWORDS = ("ngettext",)


def _strings(args: list[ast.expr], count: int) -> list[str] | None:
    if len(args) < count or not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args[:count]):
        return None
    return [a.value for a in args[:count]]


def extract_marked(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, Any, list[str]]]:
    source = fileobj.read()
    if isinstance(source, bytes):
        source = source.decode(options.get("encoding", "utf-8"))
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = (
            node.func.id
            if isinstance(node.func, ast.Name)
            else node.func.attr
            if isinstance(node.func, ast.Attribute)
            else ""
        )
        if name in KEYWORDS and isinstance(node.func, ast.Name) and len(node.args) == 1:
            found = _strings(node.args, 1)
            if found:
                yield node.lineno, name, found[0], []
        elif name in PLURAL_KEYWORDS:
            found = _strings(node.args, 2)
            if found:
                yield node.lineno, name, tuple(found), []
