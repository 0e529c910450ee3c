"""Exact odds of a Fate & Doom duel: one hero against one monster.

Both stand in attacking positions and attack in turns (the hero first unless
``first="monster"``); each turn is one attack plus the extra attacks the
three-attack rule earns (:func:`engine.fate.attack.earns_extra_attack`). Points
follow each side's :class:`~engine.fate.attack.Policy` (``attack_spend`` on every
attack roll, ``defence_spend`` on every defence roll, while points last).
Recovery is not part of the exact duel (it makes life go up and the state
space cyclic); the battle simulation covers it.

**Method.** A Markov chain over the states ``(hero life, monster life, hero
points, monster points, side to act)``. A whole turn is one transition,
computed exactly from the 36 x 36 faces of each attack (memoised). Every
transition lowers a life or a points total, except a turn in which the attack
is parried and nothing was spent: that one leaves the state as it was. So the
states are processed once each, in order of decreasing ``h + m + hp + mp``,
pushing probability mass forward; the only cycle, "hero turn changes nothing,
monster turn changes nothing", is summed analytically: with ``a``/``b`` the
mass arriving from outside at the hero's/monster's turn and ``qH``/``qM`` the
chance a turn changes nothing, the expected visits are
``vH = (a + qM b) / (1 - qH qM)`` and ``vM = b + qH vH``. Win chances, the
winner's life left and the expected number of rounds (the sum of the visits
to the first side's turns) come out exactly as Fractions.

The arithmetic is exact without :class:`~fractions.Fraction` in the inner
loop: each mass is an integer over ``B**e * L**j`` (``B = 1296**3``, the
common denominator of a turn; ``L`` the numerator of ``1 - qH qM``, a
constant because the chance of a parry does not depend on life), and only
the results become Fractions.

The number of rounds is unbounded (parries can repeat for ever), so its
distribution is listed for rounds ``1..max_rounds`` with the mass of all
later rounds as ``rounds_tail``. These per-round figures are floats (the
exact totals stay exact): each is a sum of non-negative products, so its
relative rounding error is below ``(number of states) x 2**-52`` (about
``1e-12`` for lives of 30); masses below ``1e-30`` are moved to the tail.
``max_rounds=0`` skips the distribution (about twice as fast). Floats are
summed with :func:`math.fsum` (correctly rounded), so the figures are the same
bit for bit on every Python and under Pyodide: :func:`sum` of floats rounds
differently since Python 3.12.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from ..errors import InputError, RuleError, check_choice, check_int
from .attack import DAMAGE_RULES, NEVER, Combatant, Policy, damage_for, earns_extra_attack, margin_weights

__all__ = ["DUEL_BANDS", "DuelOdds", "duel_odds", "duel_verdict", "turn_outcomes", "win_chance_by_spend"]

SIDES = ("hero", "monster")

#: The bands of the hero's chance to win a duel: below the first the monster is favoured, above
#: the second the hero is; from one to the other (both included) the duel is even.
DUEL_BANDS = (Fraction(35, 100), Fraction(65, 100))


def duel_verdict(p_hero_wins: Any) -> str:
    """Who a duel favours, from the hero's chance to win it (a Fraction, a float or a decimal
    string): ``"monster"`` below 35 %, ``"even"`` from 35 % to 65 %, ``"hero"`` above 65 %.

    The verdict of the balance meter: it follows the exact duel odds, so it never says "even"
    while the hero wins 30 % of duels (a ratio of lives alone can: the Wolf's 9 life against a
    hero's 12 is a ratio of 0.75, yet a hero of skill 7 wins 30.2 % of duels against it)."""
    try:
        p = Fraction(p_hero_wins)
    except (TypeError, ValueError):
        raise InputError("p_hero_wins", "type", f"not a chance: {p_hero_wins!r}") from None
    if not 0 <= p <= 1:
        raise InputError("p_hero_wins", "range", "a chance is from 0 to 1", value=float(p), low=0, high=1)
    low, high = DUEL_BANDS
    if p < low:
        return "monster"
    if p > high:
        return "hero"
    return "even"


_D = (1296, 1296**2, 1296**3)
_TINY = 1e-30


@lru_cache(maxsize=65536)
def _chain(
    att_skill: int, def_skill: int, life: int, ap: int, dp: int, a_spend: int, d_spend: int, rule: str, number: int
) -> tuple[tuple[tuple[int, int, int], int], ...]:
    """Outcomes of attack ``number`` and the extra attacks it earns:
    ((target life after, attacker points after, defender points after), weight),
    weights out of ``1296 ** (4 - number)`` (integers keep this exact and fast)."""
    a = min(a_spend, ap)
    d = min(d_spend, dp)
    ap2, dp2 = ap - a, dp - d
    scale = 1296 ** (3 - number)
    out: dict[tuple[int, int, int], int] = defaultdict(int)
    for margin, w in margin_weights(att_skill + a, def_skill + d, False):
        if margin <= 0:
            out[(life, ap2, dp2)] += w * scale
            continue
        damage = damage_for(margin, a, rule)
        left = life - damage
        if left <= 0:
            out[(0, ap2, dp2)] += w * scale
        elif earns_extra_attack(number, damage, life):
            for key, q in _chain(att_skill, def_skill, left, ap2, dp2, a_spend, d_spend, rule, number + 1):
                out[key] += w * q
        else:
            out[(left, ap2, dp2)] += w * scale
    return tuple(out.items())


def turn_outcomes(
    attacker: Combatant,
    defender: Combatant,
    attacker_policy: Policy = NEVER,
    defender_policy: Policy = NEVER,
    damage_rule: str = "difference",
) -> dict[tuple[int, int, int], Fraction]:
    """Exact outcomes of one whole turn (up to three attacks) of ``attacker``
    on ``defender``, both in attacking positions:
    ``{(defender life, attacker points, defender points): probability}``."""
    damage_rule = check_choice("damage_rule", damage_rule, DAMAGE_RULES)
    return {
        k: Fraction(w, _D[2])
        for k, w in _chain(
            attacker.skill,
            defender.skill,
            defender.life,
            attacker.points,
            defender.points,
            attacker_policy.attack_spend,
            defender_policy.defence_spend,
            damage_rule,
            1,
        )
    }


@dataclass(frozen=True)
class DuelOdds:
    """Exact results of a duel. Distributions are joint probabilities
    (``hero_life_left[l]`` = P(the hero wins with ``l`` life left))."""

    p_hero_wins: Any
    p_monster_wins: Any
    expected_rounds: Any
    rounds: dict[int, Any] = field(hash=False)
    rounds_tail: Any
    hero_life_left: dict[int, Any] = field(hash=False)
    monster_life_left: dict[int, Any] = field(hash=False)
    first: str
    max_rounds: int
    states: int

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "p_hero_wins": float(self.p_hero_wins),
            "p_monster_wins": float(self.p_monster_wins),
            "expected_rounds": float(self.expected_rounds),
            "rounds": {str(k): float(v) for k, v in self.rounds.items()},
            "rounds_tail": float(self.rounds_tail),
            "max_rounds": self.max_rounds,
            "hero_life_left": {str(k): float(v) for k, v in self.hero_life_left.items()},
            "monster_life_left": {str(k): float(v) for k, v in self.monster_life_left.items()},
            "first": self.first,
            "states": self.states,
        }
        if isinstance(self.p_hero_wins, Fraction):
            for key in ("p_hero_wins", "p_monster_wins", "expected_rounds"):
                out[f"{key}_exact"] = str(getattr(self, key))
            out["hero_life_left_exact"] = {str(k): str(v) for k, v in self.hero_life_left.items()}
            out["monster_life_left_exact"] = {str(k): str(v) for k, v in self.monster_life_left.items()}
        return out


def duel_odds(
    hero: Combatant,
    monster: Combatant,
    hero_policy: Policy = NEVER,
    monster_policy: Policy = NEVER,
    *,
    first: str = "hero",
    damage_rule: str = "difference",
    max_rounds: int = 30,
) -> DuelOdds:
    """Exact odds of ``hero`` against ``monster`` (see the module docstring)."""
    for name, c in (("hero", hero), ("monster", monster)):
        if not isinstance(c, Combatant):
            raise InputError(name, "type", "expected a Combatant sheet")
        if not c.alive:
            raise RuleError(f"{name}.life", f"{c.name} has no life left; a duel needs both standing")
    for name, pol in (("hero_policy", hero_policy), ("monster_policy", monster_policy)):
        if not isinstance(pol, Policy):
            raise InputError(name, "type", "expected a Policy")
        if pol.recover_below:
            raise RuleError(
                f"{name}.recover_below",
                "exact duel odds do not cover recovery; use the battle simulation for recovering creatures",
            )
    first = check_choice("first", first, SIDES)
    damage_rule = check_choice("damage_rule", damage_rule, DAMAGE_RULES)
    R = check_int("max_rounds", max_rounds, 0, 1000)

    hs, ms = hero.skill, monster.skill
    ha, hd = hero_policy.attack_spend, hero_policy.defence_spend
    ma, md = monster_policy.attack_spend, monster_policy.defence_spend

    # Exact arithmetic without Fractions: every mass is a triple (n, e, j)
    # meaning n / (B**e * L**j), where B = 1296**3 is the common denominator
    # of a turn's outcomes and L the numerator of 1 - qH*qM for the one
    # possible self-loop (a parried attack with nothing spent leaves the state
    # as it was; its chance does not depend on life, so L is a constant).
    B = _D[2]
    w_h = sum(w for mg, w in margin_weights(hs, ms, False) if mg <= 0) * 1296**2
    w_m = sum(w for mg, w in margin_weights(ms, hs, False) if mg <= 0) * 1296**2
    L = B * B - w_h * w_m
    if not L:
        raise RuleError("skill", "neither side can ever hit the other: the duel would never end")
    b_pow, l_pow = [1], [1]

    def bp(k: int) -> int:
        while len(b_pow) <= k:
            b_pow.append(b_pow[-1] * B)
        return b_pow[k]

    def lp(k: int) -> int:
        while len(l_pow) <= k:
            l_pow.append(l_pow[-1] * L)
        return l_pow[k]

    def add(x: tuple[int, int, int], y: tuple[int, int, int]) -> tuple[int, int, int]:
        n1, e1, j1 = x
        n2, e2, j2 = y
        if e1 == e2 and j1 == j2:
            return (n1 + n2, e1, j1)
        if not n1:
            return y
        if not n2:
            return x
        e, j = max(e1, e2), max(j1, j2)
        return (n1 * bp(e - e1) * lp(j - j1) + n2 * bp(e - e2) * lp(j - j2), e, j)

    def fraction(x: tuple[int, int, int]) -> Fraction:
        n, e, j = x
        return Fraction(n * bp(-e), lp(j)) if e < 0 else Fraction(n, bp(e) * lp(j))

    zero = (0, 0, 0)
    # (att, dfn, life, ap, dp, a_sp, d_sp) -> (state after, weight, probability) of each outcome
    cache: dict[tuple[int, ...], tuple[tuple[tuple[int, int, int], int, float], ...]] = {}

    def kernel(
        att: int, dfn: int, life: int, ap: int, dp: int, a_sp: int, d_sp: int
    ) -> tuple[tuple[tuple[int, int, int], int, float], ...]:
        key = (att, dfn, life, ap, dp, a_sp, d_sp)
        if key not in cache:
            cache[key] = tuple((k, w, w / B) for k, w in _chain(att, dfn, life, ap, dp, a_sp, d_sp, damage_rule, 1))
        return cache[key]

    hero_first = first == "hero"
    start = (hero.life, monster.life, hero.points, monster.points)
    # Exact total mass arriving at each state's hero / monster turn, and the
    # same mass spread by round in floats (index R+1 gathers later rounds).
    tot_h: dict[tuple[int, int, int, int], tuple[int, int, int]] = {}
    tot_m: dict[tuple[int, int, int, int], tuple[int, int, int]] = {}
    row_h: dict[tuple[int, int, int, int], list[float]] = {}
    row_m: dict[tuple[int, int, int, int], list[float]] = {}
    pending: dict[int, set[tuple[int, int, int, int]]] = defaultdict(set)
    blank = [0.0] * (R + 2)

    def arrive(
        tot: dict[tuple[int, int, int, int], tuple[int, int, int]],
        rows: dict[tuple[int, int, int, int], list[float]],
        state: tuple[int, int, int, int],
        mass: tuple[int, int, int],
        p: float,
        vals: list[float],
    ) -> None:
        if state in tot:
            tot[state] = add(tot[state], mass)
            if R:
                rows[state] = [x + p * y for x, y in zip(rows[state], vals, strict=False)]
        else:
            pending[sum(state)].add(state)
            tot[state] = mass
            if R:
                rows[state] = [p * y for y in vals]

    first_row = [0.0] * (R + 2)
    first_row[1] = 1.0
    arrive(tot_h if hero_first else tot_m, row_h if hero_first else row_m, start, (1, 0, 0), 1.0, first_row)

    hero_life: dict[int, tuple[int, int, int]] = {}
    monster_life: dict[int, tuple[int, int, int]] = {}
    rounds = [0.0] * (R + 2)
    expected_rounds = zero
    states = 0

    for total in range(sum(start), -1, -1):
        for state in sorted(pending.pop(total, ())):
            states += 1
            h, m, hp, mp = state
            kh = kernel(hs, ms, m, hp, mp, ha, md)
            km = kernel(ms, hs, h, mp, hp, ma, hd)
            same_h, same_m = (m, hp, mp), (h, mp, hp)
            q_h = next((w for k, w, _ in kh if k == same_h), 0)
            q_m = next((w for k, w, _ in km if k == same_m), 0)
            a, b = tot_h.pop(state, zero), tot_m.pop(state, zero)
            ra, rb = row_h.pop(state, blank), row_m.pop(state, blank)
            # Expected visits to this state's hero turn and monster turn:
            # vH = (a + qM b) / (1 - qH qM), vM = b + qH vH.
            v_h = add(a, (q_m * b[0], b[1] + 1, b[2])) if q_m else a
            if q_h and q_m:
                if q_h * q_m != w_h * w_m:  # pragma: no cover - the rules make this impossible
                    raise AssertionError("unexpected self-loop")
                v_h = (v_h[0], v_h[1] - 2, v_h[2] + 1)
            v_m = add(b, (q_h * v_h[0], v_h[1] + 1, v_h[2])) if q_h else b
            expected_rounds = add(expected_rounds, v_h if hero_first else v_m)
            # The same visits by round, in floats; index R+1 is the tail.
            fq_h, fq_m = q_h / B, q_m / B
            vr_h = [0.0] * (R + 2)
            vr_m = [0.0] * (R + 2)
            if not R:
                next_h = next_m = vr_h
            elif hero_first:
                for r in range(1, R + 1):
                    vr_h[r] = ra[r] + fq_m * vr_m[r - 1]
                    vr_m[r] = rb[r] + fq_h * vr_h[r]
            else:
                for r in range(1, R + 1):
                    vr_m[r] = rb[r] + fq_h * vr_h[r - 1]
                    vr_h[r] = ra[r] + fq_m * vr_m[r]
            if R:
                # Drop masses too small to matter (and slow: subnormal floats); they
                # stay in the exact totals, so they end up in the tail.
                vr_h = [x if x > _TINY else 0.0 for x in vr_h]
                vr_m = [x if x > _TINY else 0.0 for x in vr_m]
                vr_h[R + 1] = (
                    max(0.0, float(fraction(v_h)) - math.fsum(vr_h[1 : R + 1])) if ra[R + 1] or fq_m else ra[R + 1]
                )
                vr_m[R + 1] = (
                    max(0.0, float(fraction(v_m)) - math.fsum(vr_m[1 : R + 1])) if rb[R + 1] or fq_h else rb[R + 1]
                )
                # A turn passes to the other side in the same round, or in the next
                # one when it closes the round.
                next_h = vr_h if hero_first else [0.0] + vr_h[:R] + [vr_h[R] + vr_h[R + 1]]
                next_m = [0.0] + vr_m[:R] + [vr_m[R] + vr_m[R + 1]] if hero_first else vr_m
            for key, w, fp in kh:
                if key == same_h:
                    continue
                m2, hp2, mp2 = key
                mass = (w * v_h[0], v_h[1] + 1, v_h[2])
                if m2 == 0:
                    hero_life[h] = add(hero_life.get(h, zero), mass)
                    if R:
                        rounds = [x + fp * y for x, y in zip(rounds, vr_h, strict=False)]
                else:
                    arrive(tot_m, row_m, (h, m2, hp2, mp2), mass, fp, next_h)
            for key, w, fp in km:
                if key == same_m:
                    continue
                h2, mp2, hp2 = key
                mass = (w * v_m[0], v_m[1] + 1, v_m[2])
                if h2 == 0:
                    monster_life[m] = add(monster_life.get(m, zero), mass)
                    if R:
                        rounds = [x + fp * y for x, y in zip(rounds, vr_m, strict=False)]
                else:
                    arrive(tot_h, row_h, (h2, m, hp2, mp2), mass, fp, next_m)

    hero_left = {k: fraction(v) for k, v in sorted(hero_life.items())}
    monster_left = {k: fraction(v) for k, v in sorted(monster_life.items())}
    p_hero = sum(hero_left.values(), Fraction(0))
    p_monster = sum(monster_left.values(), Fraction(0))
    return DuelOdds(
        p_hero,
        p_monster,
        fraction(expected_rounds),
        {r: rounds[r] for r in range(1, R + 1) if rounds[r]},
        rounds[R + 1] if R else 1.0,
        hero_left,
        monster_left,
        first,
        R,
        states,
    )


def win_chance_by_spend(
    hero: Combatant,
    monster: Combatant,
    monster_policy: Policy = NEVER,
    *,
    spends: Any = None,
    hero_defence_spend: int = 0,
    first: str = "hero",
    damage_rule: str = "difference",
) -> dict[int, Fraction]:
    """P(hero wins) for each number of favour points spent per attack (``spends``,
    by default ``0..hero.points``), without the rounds distribution (fast)."""
    if not isinstance(hero, Combatant):
        raise InputError("hero", "type", "expected a Combatant sheet")
    if spends is None:
        spends = range(hero.points + 1)
    out: dict[int, Fraction] = {}
    for k in spends:
        k = check_int("spends", k, 0, 99)
        policy = Policy(attack_spend=k, defence_spend=hero_defence_spend)
        out[k] = duel_odds(
            hero, monster, policy, monster_policy, first=first, damage_rule=damage_rule, max_rounds=0
        ).p_hero_wins
    return out
