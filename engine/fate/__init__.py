"""Fate & Doom, a home-made 2d6 system: the skill check, the attack, duels, battles and their events.

- :mod:`~engine.fate.check` — the 2d6 skill check (exact odds, seeded rolls); its names are
  this package's own (``engine.fate.FateCheck``, ``engine.fate.odds``, ``engine.fate.roll`` …);
- :mod:`~engine.fate.attack` — combatants, one opposed attack, the three-attack rule, recovery,
  monster sheets and an encounter's balance;
- :mod:`~engine.fate.duel` — exact odds of a hero against a monster;
- :mod:`~engine.fate.battle` — encounters, formations, a fight run step by step, seeded battles;
- :mod:`~engine.fate.events` — the fight's events as frozen records (their JSON: ``to_dict()``);
- :mod:`~engine.fate.cli` — the command line's combat commands.

Layers import downwards: check <- attack <- duel, events <- battle <- cli.
"""

from . import attack, battle, check, duel, events
from .check import (
    DIFFICULTY_RANGE,
    FAVOUR_RANGE,
    SKILL_RANGE,
    TWO_D6,
    FateCheck,
    FateOdds,
    FateRoll,
    odds,
    roll,
    success_by_favour,
    two_d6,
)

__all__ = [
    "DIFFICULTY_RANGE",
    "FAVOUR_RANGE",
    "SKILL_RANGE",
    "TWO_D6",
    "FateCheck",
    "FateOdds",
    "FateRoll",
    "attack",
    "battle",
    "check",
    "duel",
    "events",
    "odds",
    "roll",
    "success_by_favour",
    "two_d6",
]
