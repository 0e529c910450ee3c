"""Kostka's rules engine: exact odds and seeded rolls for three tabletop systems.

Pure Python, no dependencies; runs the same under CPython and Pyodide.
"""

from . import fate, gurps, one_ring
from .api import CHECKS, make_check, odds_of, roll_check
from .combat import WOLF, AttackOdds, AttackRecord, Combatant, Policy, attack, attack_odds, encounter_balance, generate_monster
from .combat_battle import Encounter, Fight, simulate_battle, simulate_many
from .combat_duel import DuelOdds, duel_odds
from .dist import Dist
from .errors import EngineError, InputError, RuleError
from .fate import TWO_D6, FateCheck, FateOdds, FateRoll, success_by_favour
from .gurps import (
    THREE_D6,
    GurpsCheck,
    GurpsOdds,
    GurpsRoll,
    Outcome,
    QuickContest,
    QuickContestOdds,
    QuickContestRoll,
    RegularContest,
    RegularContestOdds,
    RegularContestRoll,
    p_at_least_one,
    quick_contest_odds,
    regular_contest_odds,
    roll_quick_contest,
    roll_regular_contest,
)
from .one_ring import (
    Degree,
    FeatMode,
    OneRingCheck,
    OneRingOdds,
    OneRingRoll,
    spend_icons,
    success_by_tn,
    target_number,
)
from .rng import GENERATOR, Dice, random_seed, session_seed
from . import documents, links  # share links and imported documents, built on the rules above

__all__ = [
    "WOLF",
    "AttackOdds",
    "AttackRecord",
    "Combatant",
    "DuelOdds",
    "Encounter",
    "Fight",
    "Policy",
    "attack",
    "attack_odds",
    "duel_odds",
    "encounter_balance",
    "generate_monster",
    "simulate_battle",
    "simulate_many",
    "CHECKS",
    "GENERATOR",
    "THREE_D6",
    "TWO_D6",
    "Degree",
    "Dice",
    "Dist",
    "EngineError",
    "FateCheck",
    "FateOdds",
    "FateRoll",
    "FeatMode",
    "GurpsCheck",
    "GurpsOdds",
    "GurpsRoll",
    "InputError",
    "OneRingCheck",
    "OneRingOdds",
    "OneRingRoll",
    "Outcome",
    "QuickContest",
    "QuickContestOdds",
    "QuickContestRoll",
    "RegularContest",
    "RegularContestOdds",
    "RegularContestRoll",
    "RuleError",
    "documents",
    "fate",
    "gurps",
    "links",
    "make_check",
    "odds_of",
    "one_ring",
    "p_at_least_one",
    "quick_contest_odds",
    "random_seed",
    "regular_contest_odds",
    "roll_check",
    "roll_quick_contest",
    "roll_regular_contest",
    "session_seed",
    "spend_icons",
    "success_by_favour",
    "success_by_tn",
    "target_number",
]
