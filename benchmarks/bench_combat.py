"""Fate & Doom combat: exact attack odds (beside icepool), exact duels, seeded battles.

    python benchmarks/bench_combat.py            # a Markdown table on stdout

The attack odds are computed by the engine and by icepool and compared
exactly before any timing. Each timing is the best of several runs; "cold"
clears the engine's caches before every run (the first call in a fresh page),
"warm" keeps them. Duels are timed with the rounds distribution (30 rounds,
the default) and without it (``max_rounds=0``).
"""

from __future__ import annotations

import platform
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import icepool  # noqa: E402

from engine.fate import attack as combat  # noqa: E402
from engine.fate import duel as combat_duel  # noqa: E402
from engine.fate.attack import NEVER, WOLF, Combatant, Policy, attack_odds, damage_for  # noqa: E402
from engine.fate.battle import Encounter, simulate_many  # noqa: E402

REPEATS = 5


def clear_caches() -> None:
    combat.margin_weights.cache_clear()
    combat_duel._chain.cache_clear()


def best(function: Callable[[], object], cold: bool, repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        if cold:
            clear_caches()
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


# -- attack odds against icepool -----------------------------------------------------
ATTACKS = [
    (a, d, ap, dp, halved, rule)
    for a in range(0, 13, 3)
    for d in range(0, 13, 3)
    for ap, dp in ((0, 0), (2, 1))
    for halved in (False, True)
    for rule in ("difference", "one_plus")
]


def icepool_attack(a: int, d: int, ap: int, dp: int, halved: bool, rule: str) -> dict[int, Fraction]:
    roll = 2 @ icepool.d6 + (a + ap)
    if halved:
        roll = roll.map(lambda x: x // 2)
    margin = roll - (2 @ icepool.d6 + (d + dp))
    damage = margin.map(lambda m: damage_for(m, ap, rule))
    total = damage.denominator()
    return {int(k): Fraction(w, total) for k, w in damage.items()}


def engine_attacks() -> None:
    for case in ATTACKS:
        attack_odds(*case)


def icepool_attacks() -> None:
    for case in ATTACKS:
        icepool_attack(*case)


# -- duels -------------------------------------------------------------------------------
DUELS = [
    ("Wolf (9) vs hero 12/7/3, never spend", Combatant.hero("Hero", 12, 7, 3), WOLF, NEVER, NEVER),
    ("Wolf (9) vs hero 12/7/3, both spend 1", Combatant.hero("Hero", 12, 7, 3), WOLF, Policy.spend(1), Policy.spend(1)),
    ("life 20 vs 20, never spend", Combatant.hero("Hero", 20, 7, 3), Combatant.monster("M", 20, 8, 4), NEVER, NEVER),
    (
        "life 20 vs 20, both spend 1",
        Combatant.hero("Hero", 20, 7, 3),
        Combatant.monster("M", 20, 8, 4),
        Policy.spend(1),
        Policy.spend(1),
    ),
    ("life 30 vs 30, never spend", Combatant.hero("Hero", 30, 7, 3), Combatant.monster("M", 30, 8, 4), NEVER, NEVER),
    (
        "life 30 vs 30, both spend 1",
        Combatant.hero("Hero", 30, 7, 3),
        Combatant.monster("M", 30, 8, 4),
        Policy.spend(1),
        Policy.spend(1),
    ),
]


def main() -> None:
    print(f"Python {platform.python_version()} on {platform.machine()}, best of {REPEATS} runs\n")
    for case in ATTACKS:
        assert attack_odds(*case).damage == icepool_attack(*case), case
    engine_cold = best(engine_attacks, cold=True)
    engine_warm = best(engine_attacks, cold=False)
    ice = best(icepool_attacks, cold=False, repeats=3)
    print(
        f"| attack odds ({len(ATTACKS)} cases, equal results) | engine cold ms | engine warm ms | icepool ms | icepool / engine cold |"
    )
    print("|---|---:|---:|---:|---:|")
    print(
        f"| skills 0-12 x points x halved x damage rule | {ms(engine_cold)} | {ms(engine_warm)} | {ms(ice)} | {ice / engine_cold:.1f} |"
    )
    print()
    print("| exact duel | states | P(hero wins) | E[rounds] | cold ms | cold ms, no rounds list | warm ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, hero, monster, hp, mp in DUELS:
        result = combat_duel.duel_odds(hero, monster, hp, mp)
        cold = best(lambda h=hero, m=monster, a=hp, b=mp: combat_duel.duel_odds(h, m, a, b), cold=True)
        bare = best(lambda h=hero, m=monster, a=hp, b=mp: combat_duel.duel_odds(h, m, a, b, max_rounds=0), cold=True)
        warm = best(lambda h=hero, m=monster, a=hp, b=mp: combat_duel.duel_odds(h, m, a, b), cold=False)
        print(
            f"| {label} | {result.states} | {float(result.p_hero_wins):.4f} | {float(result.expected_rounds):.2f} "
            f"| {ms(cold)} | {ms(bare)} | {ms(warm)} |"
        )
    print()
    example = Path(__file__).resolve().parents[1] / "examples" / "wolf_encounter.json"
    encounter = Encounter.from_json(example.read_text(encoding="utf-8"))
    runs = 500
    start = time.perf_counter()
    summary = simulate_many(encounter, 1, runs)
    took = time.perf_counter() - start
    print("| seeded battles | runs | heroes win | ms per battle |")
    print("|---|---:|---:|---:|")
    print(
        f"| examples/wolf_encounter.json (2 heroes, 2 wolves) | {runs} | {summary['p_heroes_win']:.3f} "
        f"| {took / runs * 1000:.2f} |"
    )


if __name__ == "__main__":
    main()
