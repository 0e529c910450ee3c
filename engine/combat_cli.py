"""Command-line subcommands for Fate & Doom combat (filled in with the combat engine)."""

from __future__ import annotations

import argparse


def register(odds: argparse._SubParsersAction, top: argparse._SubParsersAction) -> None:
    """Add combat subcommands to ``odds`` (``python -m engine odds …``) and to ``top``."""
