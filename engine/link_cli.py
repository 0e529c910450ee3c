"""Command-line subcommands for share links (:mod:`engine.links`).

::

    python -m engine link verify 'https://…/#r=AwEF…'        # the verdict and the roll, recomputed
    python -m engine link dice "4d6 keep 3" --seed 7          # a free dice roll as a link
    python -m engine link dice 2d6+3 --session Friday --number 3 --name Ada
    python -m engine link gaps LINK LINK …                    # missing and repeated session numbers
"""

from __future__ import annotations

import argparse
from typing import Any, TypeVar

from . import links
from .errors import check_int
from .rng import MAX_SEED, random_seed
from .roller import parse_dice

#: The parser class of the command line's subcommands.
_P = TypeVar("_P", bound=argparse.ArgumentParser)


def _verify(a: argparse.Namespace) -> dict[str, Any]:
    return links.verify(a.link, a.reveal).to_dict()


def _dice(a: argparse.Namespace) -> dict[str, Any]:
    expression = parse_dice(" ".join(a.expression))
    if a.session is not None or a.number is not None:
        number = check_int("number", a.number, 1, links.MAX_NUMBER) if a.number is not None else None
        payload = links.encode_roll_link(expression, session_code=a.session, number=number, name=a.name)
    else:
        seed = random_seed() if a.seed is None else check_int("seed", a.seed, 0, MAX_SEED)
        payload = links.encode_roll_link(expression, seed=seed, name=a.name)
    verdict = links.verify(payload)
    return {"payload": payload, "link": verdict.link.to_dict(), "roll": verdict.roll.to_dict()}


def _gaps(a: argparse.Namespace) -> dict[str, Any]:
    return {"sessions": [group.to_dict() for group in links.find_gaps(a.links)]}


def register(top: argparse._SubParsersAction[_P]) -> None:
    """Add ``link verify``, ``link dice`` and ``link gaps``."""
    commands = top.add_parser("link", help="share links: verify, free dice, session gaps").add_subparsers(
        dest="action", required=True
    )
    p = commands.add_parser("verify", help="decode a link, roll it again and say whether it follows from the link")
    p.add_argument("link", help="an address with #r=…, r=… or the bare payload")
    p.add_argument("--reveal", help="a sealed secret roll's reveal code (or its revealed link)")
    p.set_defaults(run=_verify)
    p = commands.add_parser("dice", help="the link of a free dice roll (seeded, or a session roll)")
    p.add_argument("expression", nargs="+", help="a dice expression such as 3d6, 2d6+3, '4d6 keep 3', d100")
    p.add_argument("--seed", help="the seed 0..2**64-1 (random when left out)")
    p.add_argument("--session", help="the game master's session code (with --number: the session's seed)")
    p.add_argument("--number", help="the roll's running number in the session, from 1")
    p.add_argument("--name", default="", help="the character's name (session numbering is per character)")
    p.set_defaults(run=_dice)
    p = commands.add_parser("gaps", help="missing and repeated numbers among session links")
    p.add_argument("links", nargs="+", help="session links (addresses or payloads)")
    p.set_defaults(run=_gaps)
