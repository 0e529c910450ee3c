"""A Babel extractor that finds ``N_("...")`` calls (and ``tr.ngettext("one", "many", n)``) anywhere, f-strings included.

Babel's own Python extractor does not look inside f-string expressions on
Python < 3.12; walking the syntax tree does, on every version. Used by
``babel.cfg``: ``pybabel extract -F babel.cfg -o webapp/locale/kostka.pot webapp``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any

KEYWORDS = ("N_",)


def extract_marked(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Iterator[tuple[int, str, str, list[str]]]:
    source = fileobj.read()
    if isinstance(source, bytes):
        source = source.decode(options.get("encoding", "utf-8"))
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in KEYWORDS
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield node.lineno, node.func.id, node.args[0].value, []
        elif (  # counts: tr.ngettext("singular", "plural", n)
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "ngettext"
            and len(node.args) >= 2
            and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args[:2])
        ):
            yield node.lineno, "ngettext", (node.args[0].value, node.args[1].value), []
