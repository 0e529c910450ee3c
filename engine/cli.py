"""``python -m engine``: the JSON command line.

Each command prints one JSON object on stdout: probabilities as floats with the
exact fraction beside them as a string (``"p_success": 0.5,
"p_success_exact": "1/2"``), or a full roll record. Bad input exits with status
2, prints one line ``InputError: field: message`` on stderr and nothing on
stdout. Numbers are read as text and checked by the engine, so the message says
what is allowed.

Examples::

    python -m engine odds one-ring --rating 2 --tn 13 --favoured
    python -m engine odds gurps --skill 12
    python -m engine odds gurps-quick --a 14 --b 12
    python -m engine odds gurps-regular --a 18 --b 16
    python -m engine odds fate --skill 7 --difficulty 2 --favour 1
    python -m engine roll one-ring --rating 2 --tn 13 --seed 42
    python -m engine odds dice 4d6k3
    python -m engine roll dice "2d6+3" --seed 7
    python -m engine import gcs "Giant Rat.gcs"
    python -m engine link dice "4d6 keep 3" --seed 7
    python -m engine link verify 'https://example.org/#r=AwEFAQQGAgMAAAAAAAAAAAAAAAcS_u4TkyWh'
    python -m engine schema fate          # the JSON Schema of a sheet (one-ring, gurps, fate, fate-monster)
    python -m engine schema document      # the JSON Schema of a whole document
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, NoReturn

from . import dice_cli, fate, gurps, link_cli, one_ring, sheets
from .errors import EngineError, InputError, check_choice, check_int
from .fate import cli as fate_cli
from .rng import random_seed

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    """An argument parser that raises :class:`InputError` instead of printing usage and exiting."""

    def error(self, message: str) -> NoReturn:
        raise InputError("arguments", "format", f"{message} (see {self.prog} --help)")


def _one_ring_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rating", default=None, help="skill rating 0-6 (number of success dice)")
    target = p.add_mutually_exclusive_group()
    target.add_argument("--tn", help="target number 1-40 (default 14)")
    target.add_argument("--attribute", help="the attribute 1-19 whose TN (20 - attribute) is used")
    p.add_argument(
        "--parry",
        default=None,
        help="an attack roll: the adversary's Parry 0-20, added to the TN (from --tn or --attribute)",
    )
    p.add_argument(
        "--protection",
        default=None,
        help="a Protection roll: the armour's Protection 0-6 gives the success dice (instead of --rating)",
    )
    p.add_argument(
        "--injury",
        default=None,
        help="a Protection roll: the blow's Injury 1-40 is the TN (instead of --tn / --attribute)",
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--favoured", action="store_true", help="roll two feat dice, keep the better")
    mode.add_argument("--ill-favoured", action="store_true", help="roll two feat dice, keep the worse")
    p.add_argument("--bonus-dice", default="0", help="extra success dice 0-6 (a companion's support...)")
    p.add_argument(
        "--hope", action="store_true", help="spend one Hope (at most one a roll): +1 success die, +2 with --inspired"
    )
    p.add_argument(
        "--inspired", action="store_true", help="the hero is Inspired: the Hope spent gives two success dice"
    )
    p.add_argument("--weary", action="store_true", help="success dice showing 1-3 count 0")
    p.add_argument("--miserable", action="store_true", help="an Eye of Sauron is an automatic failure")


def _one_ring_check(a: argparse.Namespace) -> one_ring.OneRingCheck:
    mode = (
        one_ring.FeatMode.FAVOURED
        if a.favoured
        else one_ring.FeatMode.ILL_FAVOURED
        if a.ill_favoured
        else one_ring.FeatMode.NORMAL
    )
    bonus = check_int("bonus_dice", a.bonus_dice, *one_ring.BONUS_DICE_RANGE) + one_ring.hope_dice(a.hope, a.inspired)
    if a.protection is not None or a.injury is not None:
        if a.protection is None or a.injury is None:
            raise InputError(
                "protection" if a.protection is None else "injury",
                "type",
                "a Protection roll needs both --protection and --injury",
            )
        for flag, value in (("--rating", a.rating), ("--tn", a.tn), ("--attribute", a.attribute), ("--parry", a.parry)):
            if value is not None:
                raise InputError(
                    "arguments",
                    "format",
                    f"{flag} does not go with a Protection roll (--protection and --injury set the dice and the TN)",
                )
        return one_ring.protection_check(
            a.protection, a.injury, feat_mode=mode, bonus_dice=bonus, weary=a.weary, miserable=a.miserable
        )
    tn: Any = a.tn if a.tn is not None else one_ring.target_number(a.attribute) if a.attribute is not None else 14
    if a.parry is not None:
        tn = one_ring.attack_tn(tn, a.parry)
    rating = 0 if a.rating is None else check_int("rating", a.rating, *one_ring.RATING_RANGE)
    return one_ring.OneRingCheck(
        rating=rating, tn=tn, feat_mode=mode, bonus_dice=bonus, weary=a.weary, miserable=a.miserable
    )


def _gurps_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--skill", required=True, help="the effective skill, or the base skill when --modifier is given")
    p.add_argument("--modifier", action="append", default=[], help="a modifier added to the skill (repeatable)")
    p.add_argument(
        "--defence", "--defense", action="store_true", help="a defence roll (allowed below effective skill 3)"
    )


def _gurps_check(a: argparse.Namespace) -> gurps.GurpsCheck:
    return gurps.GurpsCheck(skill=a.skill, modifiers=tuple(a.modifier), defence=a.defence)


def _contest_args(p: argparse.ArgumentParser, *, regular: bool) -> None:
    p.add_argument("--a", required=True, help="effective skill of side A")
    p.add_argument("--b", required=True, help="effective skill of side B")
    if regular:
        p.add_argument("--no-high-skill-rule", action="store_true", help="do not lower both skills when both exceed 14")


def _fate_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--skill", required=True, help="the hero's skill 0-30")
    p.add_argument("--difficulty", default="0", help="the difficulty modifier -20..20 (added to 2d6)")
    p.add_argument("--favour", default="0", help="favour points spent 0-30 (subtracted from 2d6)")
    p.add_argument("--favour-held", default=None, help="favour points held (spending more is refused)")
    p.add_argument(
        "--ties-succeed",
        action="store_true",
        help="table option: a result equal to the skill passes (by default it fails)",
    )


def _fate_check(a: argparse.Namespace) -> fate.FateCheck:
    return fate.FateCheck(
        skill=a.skill,
        difficulty=a.difficulty,
        favour_spent=a.favour,
        favour_held=a.favour_held,
        ties_succeed=a.ties_succeed,
    )


def _seed(a: argparse.Namespace) -> int:
    return random_seed() if a.seed is None else check_int("seed", a.seed, 0, 2**64 - 1)


def _build() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="python -m engine",
        description="Exact odds and seeded rolls for The One Ring 2e, GURPS 4e and Fate & Doom, as JSON.",
    )
    top = parser.add_subparsers(dest="command", required=True, metavar="{odds,roll,...}")

    odds = top.add_parser("odds", help="exact odds of a check").add_subparsers(dest="system", required=True)
    p = odds.add_parser("one-ring", help="The One Ring 2e check")
    _one_ring_args(p)
    p.set_defaults(run=lambda a: one_ring.odds(_one_ring_check(a)).to_dict())
    p = odds.add_parser("gurps", help="GURPS success roll")
    _gurps_args(p)
    p.set_defaults(run=lambda a: gurps.odds(_gurps_check(a)).to_dict())
    p = odds.add_parser("gurps-quick", help="GURPS quick contest")
    _contest_args(p, regular=False)
    p.set_defaults(run=lambda a: gurps.quick_contest_odds(gurps.QuickContest(a.a, a.b)).to_dict())
    p = odds.add_parser("gurps-regular", help="GURPS regular contest")
    _contest_args(p, regular=True)
    p.set_defaults(
        run=lambda a: gurps.regular_contest_odds(gurps.RegularContest(a.a, a.b, not a.no_high_skill_rule)).to_dict()
    )
    p = odds.add_parser("fate", help="Fate & Doom skill check")
    _fate_args(p)
    p.set_defaults(run=lambda a: fate.odds(_fate_check(a)).to_dict())

    rolls = top.add_parser("roll", help="a seeded roll, with every die").add_subparsers(dest="system", required=True)
    seed_help = "the seed 0..2**64-1 (random when left out; the record shows it)"
    p = rolls.add_parser("one-ring", help="The One Ring 2e check")
    _one_ring_args(p)
    p.add_argument("--seed", help=seed_help)
    p.set_defaults(run=lambda a: one_ring.roll(_one_ring_check(a), _seed(a)).to_dict())
    p = rolls.add_parser("gurps", help="GURPS success roll")
    _gurps_args(p)
    p.add_argument("--seed", help=seed_help)
    p.set_defaults(run=lambda a: gurps.roll(_gurps_check(a), _seed(a)).to_dict())
    p = rolls.add_parser("gurps-quick", help="GURPS quick contest")
    _contest_args(p, regular=False)
    p.add_argument("--seed", help=seed_help)
    p.set_defaults(run=lambda a: gurps.roll_quick_contest(gurps.QuickContest(a.a, a.b), _seed(a)).to_dict())
    p = rolls.add_parser("gurps-regular", help="GURPS regular contest")
    _contest_args(p, regular=True)
    p.add_argument("--max-rounds", default="1000", help="stop after this many undecided rounds")
    p.add_argument("--seed", help=seed_help)
    p.set_defaults(
        run=lambda a: gurps.roll_regular_contest(
            gurps.RegularContest(a.a, a.b, not a.no_high_skill_rule), _seed(a), a.max_rounds
        ).to_dict()
    )
    p = rolls.add_parser("fate", help="Fate & Doom skill check")
    _fate_args(p)
    p.add_argument("--seed", help=seed_help)
    p.set_defaults(run=lambda a: fate.roll(_fate_check(a), _seed(a)).to_dict())

    fate_cli.register(odds, top)
    imports = top.add_parser("import", help="read another program's file into a Kostka document").add_subparsers(
        dest="format", required=True
    )
    p = imports.add_parser("gcs", help="a GURPS Character Sheet (GCS 5) .gcs file: prints a Kostka characters document")
    p.add_argument("file", help="the .gcs file (JSON written by GCS 5)")
    p.set_defaults(run=_import_gcs)
    dice_cli.register(odds, rolls)
    link_cli.register(top)
    p = top.add_parser("schema", help="the JSON Schema of a character sheet, or of a whole document")
    p.add_argument("sheet", help=f"one of {', '.join(sheets.SHEETS)}, or document")
    p.set_defaults(run=_schema)
    return parser


def _schema(a: argparse.Namespace) -> dict[str, Any]:
    from .documents import json_schema

    if a.sheet == "document":
        return json_schema()
    return sheets.json_schema(check_choice("sheet", a.sheet, (*sheets.SHEETS, "document")))


def _import_gcs(a: argparse.Namespace) -> dict[str, Any]:
    from .documents import MAX_DOCUMENT_BYTES
    from .gcs import read_gcs

    try:
        with open(a.file, "rb") as handle:
            data = handle.read(MAX_DOCUMENT_BYTES + 1)
    except OSError as error:
        raise InputError("file", "format", f"cannot read {a.file}: {error.strerror}") from None
    result = read_gcs(data)
    for what, reason in result.skipped:
        print(f"left out: {what} ({reason})".replace("\n", " "), file=sys.stderr)
    document: dict[str, Any] = json.loads(result.document())
    return document


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status (0, or 2 on bad input)."""
    try:
        args = _build().parse_args(argv)
        result = args.run(args)
    except EngineError as error:
        kind = "InputError" if isinstance(error, InputError) else type(error).__name__
        print(f"{kind}: {error}".replace("\n", " "), file=sys.stderr)
        return 2
    json.dump(result, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0
