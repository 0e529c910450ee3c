"""The JSON command line (filled in with the rules)."""

from __future__ import annotations


def main(argv: list[str] | None = None) -> int:
    return 0
