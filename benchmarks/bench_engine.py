"""Exact odds: the engine against icepool on the same distributions, side by side.

    python benchmarks/bench_engine.py            # a Markdown table on stdout

Every case is computed by both libraries and the results are compared exactly
before any timing. Each timing is the best of several runs (two for icepool's tables, which take seconds); "cold" clears the
engine's caches before every run (the first call in a fresh page), "warm"
keeps them (every later call). icepool keeps its own caches between runs, so
its figures are warm-ish too.
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
from icepool import Die, Vector  # noqa: E402

from engine import fate, gurps, one_ring  # noqa: E402
from engine.one_ring import FeatMode, OneRingCheck  # noqa: E402

REPEATS = 7


def clear_engine_caches() -> None:
    for function in (
        one_ring._feat_weights,
        one_ring._success_joint,
        one_ring._table,
        gurps._outcome_weights,
        gurps._success_weight,
        gurps._quick_dist,
    ):
        function.cache_clear()


def best(function: Callable[[], object], cold: bool, repeats: int = REPEATS) -> float:
    times = []
    for _ in range(repeats):
        if cold:
            clear_engine_caches()
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


# -- icepool versions -------------------------------------------------------------

FEAT = Die(range(12))  # 0 = Eye, 1..10, 11 = Gandalf


def icepool_one_ring(check: OneRingCheck) -> dict[int, Fraction]:
    """Degree (0 failure, 1 success, 2 great, 3 extraordinary) -> probability."""
    if check.feat_mode is FeatMode.FAVOURED:
        feat = icepool.highest(FEAT, FEAT)
    elif check.feat_mode is FeatMode.ILL_FAVOURED:
        feat = icepool.lowest(FEAT, FEAT)
    else:
        feat = FEAT
    success = Die([Vector((0 if check.weary and f <= 3 else f, int(f == 6))) for f in range(1, 7)])
    dice = check.success_dice @ success if check.success_dice else Die([Vector((0, 0))])

    def degree(f: int, s: Vector) -> int:
        if f == 11:
            ok = True
        elif f == 0 and check.miserable:
            ok = False
        else:
            ok = (f if 1 <= f <= 10 else 0) + s[0] >= check.tn
        return 1 + min(s[1], 2) if ok else 0

    result = icepool.map(degree, feat, dice)
    return {o: Fraction(q, result.denominator()) for o, q in result.items()}


def engine_one_ring(check: OneRingCheck) -> dict[int, Fraction]:
    odds = one_ring.odds(check)
    out = {i: odds.degrees[d] for i, d in enumerate(one_ring.Degree)}
    return {k: v for k, v in out.items() if v}


def icepool_gurps_p(skill: int) -> tuple[Fraction, Fraction, Fraction]:
    """(P success, P critical success, P critical failure), restating the rules for icepool."""

    def outcome(t: int) -> int:
        if t <= 4 or (t == 5 and skill >= 15) or (t == 6 and skill >= 16):
            return 0  # critical success
        if t == 18 or (t == 17 and skill <= 15) or t >= skill + 10:
            return 3  # critical failure
        return 1 if t <= 16 and t <= skill else 2

    result = (3 @ icepool.d6).map(outcome)
    den = result.denominator()
    q = {o: Fraction(result.quantity(o), den) for o in range(4)}
    return q[0] + q[1], q[0], q[3]


def engine_gurps_p(skill: int) -> tuple[Fraction, Fraction, Fraction]:
    odds = gurps.odds(gurps.GurpsCheck(skill))
    return odds.p_success, odds.p_critical_success, odds.p_critical_failure


def icepool_quick(a: int, b: int) -> tuple[Fraction, Fraction, Fraction]:
    def side(skill: int) -> Die:
        return (3 @ icepool.d6).map(
            lambda t: Vector((int(gurps.outcome_of(t, skill) in ("critical_success", "success")), skill - t))
        )

    def winner(x: Vector, y: Vector) -> int:
        if x[0] != y[0]:
            return 1 if x[0] else 2
        return 0 if x[1] == y[1] else 1 if x[1] > y[1] else 2

    result = icepool.map(winner, side(a), side(b))
    den = result.denominator()
    return Fraction(result.quantity(1), den), Fraction(result.quantity(2), den), Fraction(result.quantity(0), den)


def engine_quick(a: int, b: int) -> tuple[Fraction, Fraction, Fraction]:
    odds = gurps.quick_contest_odds(gurps.QuickContest(a, b))
    return odds.p_a_wins, odds.p_b_wins, odds.p_tie


def icepool_fate(skill: int, difficulty: int, favour: int) -> Fraction:
    # roll under the skill; a tie succeeds only where the check says so (by default it fails)
    total = 2 @ icepool.d6 + difficulty - favour
    result = total <= skill if fate.FateCheck(skill, difficulty, favour).ties_succeed else total < skill
    return Fraction(result.quantity(True), result.denominator())


def engine_fate(skill: int, difficulty: int, favour: int) -> Fraction:
    return fate.odds(fate.FateCheck(skill, difficulty, favour)).p_success


TABLE = [
    OneRingCheck(rating=r, tn=tn, feat_mode=mode, weary=w, miserable=m)
    for r in range(7)
    for tn in range(10, 21)
    for mode in FeatMode
    for w, m in ((False, False), (True, False), (False, True), (True, True))
]
TABLE_MODES_ONLY = [c for c in TABLE if not c.weary and not c.miserable]


def cases() -> list[tuple[str, Callable[[], object], Callable[[], object]]]:
    out = []
    for check in (
        OneRingCheck(rating=2, tn=13),
        OneRingCheck(rating=4, tn=16, feat_mode="favoured", bonus_dice=2),
        OneRingCheck(rating=3, tn=14, feat_mode="ill_favoured", weary=True, miserable=True),
        OneRingCheck(rating=6, tn=20, feat_mode="favoured", bonus_dice=6, weary=True),
    ):
        states = (" weary" if check.weary else "") + (" miserable" if check.miserable else "")
        name = f"One Ring rating {check.rating}+{check.bonus_dice} TN {check.tn} {check.feat_mode}{states}"
        out.append((name, lambda c=check: engine_one_ring(c), lambda c=check: icepool_one_ring(c)))
    for skill in (10, 16):
        out.append(
            (
                f"GURPS 3d6 vs {skill} (success, criticals)",
                lambda s=skill: engine_gurps_p(s),
                lambda s=skill: icepool_gurps_p(s),
            )
        )
    out.append(("GURPS quick contest 14 vs 12", lambda: engine_quick(14, 12), lambda: icepool_quick(14, 12)))
    out.append(
        ("Fate & Doom skill 7, difficulty +2, favour 1", lambda: engine_fate(7, 2, 1), lambda: icepool_fate(7, 2, 1))
    )
    out.append(
        (
            f"One Ring table: ratings 0-6 × TN 10-20 × 3 feat modes ({len(TABLE_MODES_ONLY)} checks)",
            lambda: [engine_one_ring(c) for c in TABLE_MODES_ONLY],
            lambda: [icepool_one_ring(c) for c in TABLE_MODES_ONLY],
        )
    )
    out.append(
        (
            f"One Ring table, also × Weary × Miserable ({len(TABLE)} checks)",
            lambda: [engine_one_ring(c) for c in TABLE],
            lambda: [icepool_one_ring(c) for c in TABLE],
        )
    )
    return out


def main() -> int:
    rows = []
    for name, engine_case, icepool_case in cases():
        if engine_case() != icepool_case():
            print(f"MISMATCH in {name}", file=sys.stderr)
            return 1
        cold = best(engine_case, cold=True)
        warm = best(engine_case, cold=False)
        other = best(icepool_case, cold=False, repeats=2 if "table" in name else REPEATS)
        rows.append((name, cold, warm, other))
    print(
        f"Python {platform.python_version()} on {platform.machine()}, icepool {icepool.__version__}; "
        f"best of {REPEATS} runs (icepool tables: best of 2); all results equal.\n"
    )
    print("| case | engine cold (ms) | engine warm (ms) | icepool (ms) | icepool / engine cold |")
    print("|:--|--:|--:|--:|--:|")
    for name, cold, warm, other in rows:
        print(f"| {name} | {cold * 1000:.3f} | {warm * 1000:.3f} | {other * 1000:.3f} | {other / cold:.1f}× |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
