"""Command-line subcommands for Fate & Doom combat.

::

    python -m engine odds fate-attack --attack-skill 7 --defence-skill 8 [--attack-points 1] [--defence-points 0]
        [--defender-in-defence [--halving roll|dice|damage]] [--damage-rule one_plus]
    python -m engine odds fate-duel --hero-life 12 --hero-skill 7 --hero-favour 3 --monster-life 9 --monster-skill 8
        --monster-stoutness 4 [--hero-spend 1] [--monster-spend 1]
    python -m engine simulate fate-battle --encounter examples/wolf_encounter.json --seed 42 [--runs 1000] [--halving dice] [--after-kill next]
    python -m engine monster --seed 42 [--skill-modifier 2] [--life-dice 2] [--name Troll]

Numbers are read as text and checked by the engine (:func:`engine.errors.check_int`),
so bad input ends in the command line's ``InputError`` path (exit status 2).
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any, TypeVar

from ..errors import InputError, check_choice, check_int
from ..rng import MAX_SEED, Dice, random_seed
from .attack import DAMAGE_RULES, HALVING_RULES, Combatant, Policy, attack_odds, generate_monster
from .battle import AFTER_KILL, Encounter, simulate_battle, simulate_many
from .duel import duel_odds

#: The parser class of the command line's subcommands.
_P = TypeVar("_P", bound=argparse.ArgumentParser)


def _seed(value: Any) -> int:
    return random_seed() if value is None else check_int("seed", value, 0, MAX_SEED)


def _attack(a: argparse.Namespace) -> dict[str, Any]:
    odds = attack_odds(
        a.attack_skill,
        a.defence_skill,
        a.attack_points,
        a.defence_points,
        a.defender_in_defence,
        a.damage_rule,
        a.halving,
    ).to_dict()
    return {"halving": a.halving, "defender_in_defence": a.defender_in_defence, **odds}


#: The largest duel the command line works out: its states (hero life x monster life x (favour + 1) x
#: (stoutness + 1)) times the two lives added up (exact arithmetic grows with the lives).
MAX_DUEL_WORK = 1_000_000
#: The largest simulation: runs x the total Life of every creature in the encounter.
MAX_BATTLE_WORK = 60_000


def _duel(a: argparse.Namespace) -> dict[str, Any]:
    hero = _sheet("hero", a.hero_name, a.hero_life, a.hero_skill, a.hero_favour)
    monster = _sheet("monster", a.monster_name, a.monster_life, a.monster_skill, a.monster_stoutness)
    hero_policy = _policy("hero", a.hero_spend, a.hero_defence_spend)
    monster_policy = _policy("monster", a.monster_spend, a.monster_defence_spend)
    work = hero.life * monster.life * (hero.points + 1) * (monster.points + 1) * (hero.life + monster.life)
    if work > MAX_DUEL_WORK:
        raise InputError(
            "hero_life",
            "range",
            "too big a duel to work out in seconds: hero life x monster life x (favour + 1) x "
            f"(stoutness + 1) x (hero life + monster life) is {work}, at most {MAX_DUEL_WORK}",
            high=MAX_DUEL_WORK,
            value=work,
        )
    result = duel_odds(
        hero,
        monster,
        hero_policy,
        monster_policy,
        first=a.first,
        damage_rule=a.damage_rule,
        max_rounds=check_int("max_rounds", a.max_rounds, 0, 1000),
    )
    return {
        "hero": hero.to_dict(),
        "monster": monster.to_dict(),
        "hero_policy": hero_policy.to_dict(),
        "monster_policy": monster_policy.to_dict(),
        **result.to_dict(),
    }


def _sheet(kind: str, name: str, life: Any, skill: Any, points: Any) -> Combatant:
    p = "favour" if kind == "hero" else "stoutness"
    fields = {
        "name": f"{kind}_name",
        "life": f"{kind}_life",
        "max_life": f"{kind}_life",
        "skill": f"{kind}_skill",
        "points": f"{kind}_{p}",
        "max_points": f"{kind}_{p}",
    }
    try:
        return Combatant(
            name,
            kind,
            check_int(fields["life"], life),
            None,
            check_int(fields["skill"], skill),
            check_int(fields["points"], points),
        )
    except InputError as error:
        field = error.field if error.field.startswith(kind) else fields.get(error.field, error.field)
        raise InputError(field, error.code, error.message, **error.params) from None


def _policy(kind: str, spend: Any, defence: Any) -> Policy:
    return Policy(
        attack_spend=check_int(f"{kind}_spend", spend, 0, 99),
        defence_spend=check_int(f"{kind}_defence_spend", defence, 0, 99),
    )


def _battle(a: argparse.Namespace) -> dict[str, Any]:
    try:
        with open(a.encounter, "rb") as handle:
            data = handle.read(1_000_001)
    except OSError as error:
        raise InputError("encounter", "format", f"cannot read {a.encounter}: {error.strerror}") from None
    if len(data) > 1_000_000:
        raise InputError("encounter", "range", "the encounter file is larger than 1 MB", high=1_000_000)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(
            "encounter", "format", f"the encounter file is not UTF-8 text (byte {error.start + 1})"
        ) from None
    encounter = Encounter.from_json(text)
    if a.halving is not None:  # the command line's reading over the file's options
        encounter = replace(encounter, halving=check_choice("halving", a.halving, HALVING_RULES))
    if a.after_kill is not None:
        encounter = replace(encounter, after_kill=check_choice("after_kill", a.after_kill, AFTER_KILL))
    seed = _seed(a.seed)
    runs = check_int("runs", a.runs, 1, 100_000)
    life = sum(c.life for c in (*encounter.heroes, *encounter.monsters))
    if runs * max(life, 1) > MAX_BATTLE_WORK:
        most = MAX_BATTLE_WORK // max(life, 1)
        raise InputError(
            "runs",
            "range",
            f"at most {most} runs of this encounter (runs x the total Life of its creatures, "
            f"{life}, at most {MAX_BATTLE_WORK})",
            high=most,
            value=runs,
        )
    if runs == 1:
        return simulate_battle(encounter, Dice(seed))
    return simulate_many(encounter, seed, runs)


def _monster(a: argparse.Namespace) -> dict[str, Any]:
    seed = _seed(a.seed)
    made = generate_monster(Dice(seed), a.skill_modifier, a.life_dice, a.name)
    return {"seed": seed, **made.to_dict()}


def register(odds: argparse._SubParsersAction[_P], top: argparse._SubParsersAction[_P]) -> None:
    """Add combat subcommands to ``odds`` (``python -m engine odds …``) and to ``top``."""
    p = odds.add_parser("fate-attack", help="Fate & Doom: one opposed attack")
    p.add_argument("--attack-skill", required=True, help="the attacker's skill")
    p.add_argument("--defence-skill", "--defense-skill", required=True, help="the defender's skill")
    p.add_argument("--attack-points", default="0", help="favour/stoutness the attacker spends")
    p.add_argument("--defence-points", "--defense-points", default="0", help="points the defender spends")
    p.add_argument(
        "--defender-in-defence",
        action="store_true",
        help="the defender stands in a defending position (attack roll halved)",
    )
    p.add_argument("--damage-rule", default="difference", help=f"one of {', '.join(DAMAGE_RULES)}")
    p.add_argument(
        "--halving",
        default="roll",
        help="against a defending position, halve the whole attack roll (roll, the default), "
        "only 2d6 + points (dice), or the damage (damage)",
    )
    p.set_defaults(run=_attack)

    p = odds.add_parser("fate-duel", help="Fate & Doom: exact odds of a hero against a monster")
    for kind, points in (("hero", "favour"), ("monster", "stoutness")):
        p.add_argument(f"--{kind}-life", required=True, help=f"the {kind}'s life (also its maximum)")
        p.add_argument(f"--{kind}-skill", required=True, help=f"the {kind}'s skill")
        p.add_argument(f"--{kind}-{points}", default="0", help=f"the {kind}'s {points} points")
        p.add_argument(f"--{kind}-spend", default="0", help="points spent on every attack while they last")
        p.add_argument(f"--{kind}-defence-spend", default="0", help="points spent on every defence while they last")
        p.add_argument(f"--{kind}-name", default=kind.capitalize(), help="a name for the output")
    p.add_argument("--first", default="hero", help="who attacks first: hero or monster")
    p.add_argument("--damage-rule", default="difference", help=f"one of {', '.join(DAMAGE_RULES)}")
    p.add_argument(
        "--max-rounds",
        default="30",
        help="rounds listed in the rounds distribution, the rest is the tail (0: no distribution, faster)",
    )
    p.description = (
        "Exact odds of a duel. Refused (exit 2) when hero life x monster life x (hero favour + 1) x "
        f"(monster stoutness + 1) x (hero life + monster life) is above {MAX_DUEL_WORK} "
        "(e.g. life 75 against 75 without points), so that the answer comes within seconds."
    )
    p.set_defaults(run=_duel)

    sim = top.add_parser("simulate", help="seeded simulations").add_subparsers(dest="system", required=True)
    p = sim.add_parser("fate-battle", help="Fate & Doom: a whole encounter, blow by blow")
    p.add_argument("--encounter", required=True, help="the encounter JSON file (see examples/wolf_encounter.json)")
    p.add_argument("--seed", help="the seed 0..2**64-1 (random when left out; the output shows it)")
    p.add_argument(
        "--runs",
        default="1",
        help="1: the full log of one fight; more: a summary of that many fights "
        f"(runs x the total Life of the encounter's creatures at most {MAX_BATTLE_WORK}, e.g. 1428 runs of the wolf example)",
    )
    p.add_argument(
        "--halving",
        default=None,
        help=f"the defending position's halving, one of {', '.join(HALVING_RULES)} (over the file's options.halving)",
    )
    p.add_argument(
        "--after-kill",
        default=None,
        help="a kill inside a chain of attacks: end (the chain ends) or next (it goes on to the next enemy faced)",
    )
    p.set_defaults(run=_battle)

    p = top.add_parser("monster", help="Fate & Doom: generate a monster sheet from the dice")
    p.add_argument("--seed", help="the seed 0..2**64-1 (random when left out; the output shows it)")
    p.add_argument("--skill-modifier", default="0", help="added to the skill die (-20..20)")
    p.add_argument("--life-dice", default="1", help="1 for Life 6+1d6, 2 for the rarer 6+2d6")
    p.add_argument("--name", default="Monster", help="the monster's name")
    p.set_defaults(run=_monster)
