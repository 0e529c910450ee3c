"""A free dice roller: expressions such as ``3d6``, ``2d6+3``, ``4d6 keep 3``, ``d12``, ``d100``.

Grammar (case and spaces do not matter; ``−`` is a minus)::

    expression := term (("+" | "-") term)*
    term       := dice | whole number
    dice       := [count] "d" (sides | "%") [keep]
    keep       := ("k" | "kh" | "keep" | "keep highest") n   keep the n highest dice
                | ("kl" | "keep lowest") n                    keep the n lowest dice

``d%`` is ``d100``; a count left out is 1. :func:`parse_dice` checks the
bounds before anything is worked out, so nothing takes long: at most
:data:`MAX_TERMS` terms, :data:`MAX_DICE` dice in all, :data:`MAX_SIDES` sides
a die, :data:`MAX_PIPS` for the dice times their sides summed over the
expression, constants up to :data:`MAX_CONSTANT`, and a term that keeps some
of its dice has at most :data:`MAX_KEEP_DICE` dice of at most
:data:`MAX_KEEP_SIDES` sides. Beyond them :class:`InputError` (field
``"dice"``) says which bound, with ``params`` for the translated message.

:meth:`DiceExpression.odds` is the exact distribution of the total
(:class:`~engine.dist.Dist`, counts over all ``sides ** dice`` throws: sums by
convolution, kept dice by the order statistic of the lowest kept die), and
:meth:`DiceExpression.roll` draws the dice from the seeded generator
(:class:`~engine.rng.Dice`): terms left to right, each term's dice in order.
Kept dice are the highest (or lowest) faces; among equal faces the first
drawn are kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any, ClassVar

from ._util import as_dice, dist_to_dict
from .dist import Dist
from .errors import InputError
from .rng import Dice

__all__ = [
    "MAX_CONSTANT",
    "MAX_DICE",
    "MAX_KEEP_DICE",
    "MAX_KEEP_SIDES",
    "MAX_PIPS",
    "MAX_SIDES",
    "MAX_TERMS",
    "DiceExpression",
    "DiceRoll",
    "DiceTerm",
    "parse_dice",
]

MAX_TERMS = 10
MAX_DICE = 100
MAX_SIDES = 1000
MAX_PIPS = 1000  # sum of dice × sides: bounds the work of the exact distribution
MAX_CONSTANT = 10_000
MAX_KEEP_DICE = 10
MAX_KEEP_SIDES = 20
MAX_TEXT = 100

_TOKEN = re.compile(
    r"\s*(?:(?P<dice>(?P<count>\d+)?\s*d\s*(?P<sides>\d+|%)(?:\s*(?P<keep>keep\s+highest|keep\s+lowest|keep|kh|kl|k)\s*(?P<kept>\d+))?)"
    r"|(?P<number>\d+)|(?P<op>[+\-]))",
    re.IGNORECASE,
)


def _error(code: str, message: str, **params: Any) -> InputError:
    return InputError("dice", code, message, **params)


@dataclass(frozen=True)
class DiceTerm:
    """``count`` dice of ``sides`` faces (``keep`` of them, or all), added (``sign`` 1) or subtracted (−1)."""

    count: int
    sides: int
    keep: int | None = None
    lowest: bool = False
    sign: int = 1

    @property
    def text(self) -> str:
        out = f"{self.count}d{self.sides}"
        if self.keep is not None:
            out += f"{'kl' if self.lowest else 'k'}{self.keep}"
        return out

    def dist(self) -> Dist[int]:
        """Exact distribution of this term's total (before its sign)."""
        if self.keep is None or self.keep == self.count:
            weights = _power([1] * self.sides, self.count)
            return Dist({self.count + i: w for i, w in enumerate(weights) if w})
        if self.lowest:  # a face f is s + 1 − f of a mirrored die
            high = _keep_highest(self.count, self.sides, self.keep)
            return Dist({self.keep * (self.sides + 1) - t: w for t, w in high.items()})
        return Dist(_keep_highest(self.count, self.sides, self.keep))

    def kept(self, faces: tuple[int, ...]) -> tuple[bool, ...]:
        """Which of ``faces`` (in the order drawn) this term keeps."""
        if self.keep is None:
            return (True,) * len(faces)
        order = sorted(range(len(faces)), key=lambda i: (faces[i] if self.lowest else -faces[i], i))
        chosen = set(order[: self.keep])
        return tuple(i in chosen for i in range(len(faces)))


def _convolve(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def _power(a: list[int], n: int) -> list[int]:
    """Counts of the sum of ``n`` draws from ``a`` (offsets from 0), by repeated convolution."""
    out = [1]
    for _ in range(n):
        out = _convolve(out, a)
    return out


def _keep_highest(n: int, s: int, k: int) -> dict[int, int]:
    """Counts of the sum of the ``k`` highest of ``n`` dice with ``s`` faces, over all ``s**n`` throws.

    Split every throw by the value ``v`` of the k-th highest die: ``a < k`` dice
    above ``v`` (any of the faces ``v+1..s``), ``b ≥ k − a`` dice at ``v`` and the
    other ``c`` below it (``v − 1`` faces each): the kept sum is the ``a`` dice
    above plus ``(k − a)·v``.
    """
    out: dict[int, int] = {}
    for v in range(1, s + 1):
        above = [1] * (s - v)  # faces v+1..s as offsets 0..s-v-1
        sums = [1]  # counts of the sum of a dice above v, offset by a·(v+1)
        for a in range(k):
            if a and not above:
                break
            if a:
                sums = _convolve(sums, above)
            ways_rest = 0
            for b in range(k - a, n - a + 1):
                c = n - a - b
                ways_rest += comb(n, a) * comb(n - a, b) * (v - 1) ** c
            if not ways_rest:
                continue
            base = a * (v + 1) + (k - a) * v
            for i, w in enumerate(sums):
                if w:
                    out[base + i] = out.get(base + i, 0) + w * ways_rest
    return out


@dataclass(frozen=True)
class DiceRoll:
    """A seeded roll of a dice expression: every die, which were kept, and the total."""

    expression: str
    seed: int
    faces: tuple[tuple[int, ...], ...]  # per dice term, in order
    kept: tuple[tuple[bool, ...], ...]
    subtotals: tuple[int, ...]  # per dice term, signed
    total: int
    terms: tuple[DiceTerm, ...]
    constant: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": "dice",
            "expression": self.expression,
            "seed": self.seed,
            "terms": [
                {"dice": t.text, "sign": t.sign, "faces": list(f), "kept": list(k), "subtotal": s}
                for t, f, k, s in zip(self.terms, self.faces, self.kept, self.subtotals, strict=True)
            ],
            "constant": self.constant,
            "total": self.total,
        }


@dataclass(frozen=True)
class DiceExpression:
    """A parsed expression: dice terms in order and the sum of the constants.

    It is the free dice's *check* for share links (:mod:`engine.links`): ``system`` is ``"dice"``,
    :meth:`to_dict` gives the canonical text and :meth:`from_dict` parses it again within the bounds.
    """

    system: ClassVar[str] = "dice"

    terms: tuple[DiceTerm, ...]
    constant: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"expression": self.text}

    @classmethod
    def from_dict(cls, data: Any) -> DiceExpression:
        if not isinstance(data, dict) or set(data) != {"expression"}:
            raise _error("type", "expected an object with the dice expression", what="syntax")
        return parse_dice(data["expression"])

    @property
    def text(self) -> str:
        """The expression written the canonical way (``2d6+3``, ``4d6k3-1``)."""
        parts = []
        for t in self.terms:
            parts.append(("-" if t.sign < 0 else "+") + t.text)
        if self.constant or not parts:
            parts.append(f"{'-' if self.constant < 0 else '+'}{abs(self.constant)}")
        text = "".join(parts)
        return text[1:] if text.startswith("+") else text

    @property
    def low(self) -> int:
        return self.constant + sum(t.sign * (t.keep or t.count) * (1 if t.sign > 0 else t.sides) for t in self.terms)

    @property
    def high(self) -> int:
        return self.constant + sum(t.sign * (t.keep or t.count) * (t.sides if t.sign > 0 else 1) for t in self.terms)

    def odds(self) -> Dist[int]:
        """Exact distribution of the total."""
        low = self.constant
        counts = [1]
        for t in self.terms:
            d = t.dist()
            lo, hi = min(d), max(d)
            dense = [d.weight(x) for x in range(lo, hi + 1)]
            if t.sign < 0:
                dense.reverse()
                low -= hi
            else:
                low += lo
            counts = _convolve(counts, dense)
        return Dist({low + i: w for i, w in enumerate(counts) if w}).reduced()

    def odds_dict(self) -> dict[str, Any]:
        dist = self.odds()
        mean = dist.mean()
        return {
            "system": "dice",
            "expression": self.text,
            "min": min(dist),
            "max": max(dist),
            "mean": float(mean),
            "mean_exact": str(Fraction(mean)),
            "totals": dist_to_dict(dist),
        }

    def roll(self, dice: Dice | int) -> DiceRoll:
        """Draw the dice term by term, as written."""
        dice = as_dice(dice)
        return self._record(dice.seed, [dice.roll(t.count, t.sides) for t in self.terms])

    def _record(self, seed: int, faces: list[tuple[int, ...]]) -> DiceRoll:
        """The roll of this expression whose terms show ``faces``."""
        kept, subtotals = [], []
        for t, f in zip(self.terms, faces, strict=True):
            k = t.kept(f)
            kept.append(k)
            subtotals.append(t.sign * sum(x for x, keep in zip(f, k, strict=True) if keep))
        total = self.constant + sum(subtotals)
        return DiceRoll(self.text, seed, tuple(faces), tuple(kept), tuple(subtotals), total, self.terms, self.constant)

    @property
    def canonical(self) -> DiceExpression:
        """The one way of writing this expression's distribution (see :meth:`roll_canonical`).

        Subtracted dice are reflected (``-NdS`` is ``+NdS - N(S+1)``, and a subtracted term that
        keeps its highest dice adds one that keeps its lowest), terms are sorted by sides, then
        keep mode and counts, and terms of all their dice on one kind of die are merged:
        ``1d6+3+1d6``, ``d6+d6+3`` and ``2d6+3`` are ``2d6+3``; ``7-1d6`` is ``1d6``. Its constant
        may lie beyond :data:`MAX_CONSTANT` (it is never parsed)."""
        return _canonical_plan(self)[0]

    def roll_canonical(self, dice: Dice | int) -> DiceRoll:
        """Draw the dice of :attr:`canonical` and show them on this expression's terms.

        Every way of writing one distribution then gets the same total from one seed: session
        rolls are rolled so (:func:`engine.links.session_roll_seed`), or rewriting ``2d6+3`` as
        ``1d6+3+1d6`` would give other dice at the same number. Each term takes its dice from
        the canonical term it went into, in order; a subtracted term shows ``S + 1 - face``."""
        dice = as_dice(dice)
        canonical, places = _canonical_plan(self)
        drawn = [dice.roll(t.count, t.sides) for t in canonical.terms]
        faces = []
        for t, (index, offset) in zip(self.terms, places, strict=True):
            part = drawn[index][offset : offset + t.count]
            faces.append(tuple(t.sides + 1 - x for x in part) if t.sign < 0 else part)
        return self._record(dice.seed, faces)


def _reflected(term: DiceTerm) -> DiceTerm:
    """``term`` with a plus sign: a subtracted term's dice counted from the top of the die."""
    if term.sign > 0:
        return term
    return DiceTerm(term.count, term.sides, term.keep, term.keep is not None and not term.lowest)


def _canonical_plan(expression: DiceExpression) -> tuple[DiceExpression, tuple[tuple[int, int], ...]]:
    """The canonical expression and, per term as written, (canonical term, offset of its first die)."""
    constant = expression.constant
    for t in expression.terms:
        if t.sign < 0:
            constant -= (t.keep or t.count) * (t.sides + 1)
    units = [_reflected(t) for t in expression.terms]

    def key(i: int) -> tuple[int, ...]:
        u = units[i]
        return (u.sides, u.keep is not None, u.lowest, u.count, u.keep or 0)

    terms: list[DiceTerm] = []
    places: dict[int, tuple[int, int]] = {}
    for i in sorted(range(len(units)), key=key):
        u = units[i]
        last = terms[-1] if terms else None
        if u.keep is None and last is not None and last.keep is None and last.sides == u.sides:
            places[i] = (len(terms) - 1, last.count)
            terms[-1] = DiceTerm(last.count + u.count, u.sides)
        else:
            places[i] = (len(terms), 0)
            terms.append(u)
    return DiceExpression(tuple(terms), constant), tuple(places[i] for i in range(len(units)))


def parse_dice(text: Any) -> DiceExpression:
    """Parse and bound-check a dice expression (see the module docstring)."""
    if not isinstance(text, str):
        raise _error("type", f"expected the dice as text, got {type(text).__name__}")
    source = text.replace("\u2212", "-").replace("\u00d7", "x")
    if len(source) > MAX_TEXT:
        raise _error("range", f"is at most {MAX_TEXT} characters long", high=MAX_TEXT, value=len(source), what="length")
    if not source.strip():
        raise _error("format", "is empty: type dice such as 3d6, 2d6+3 or 4d6 keep 3", what="empty")
    pos, sign, expect_term, signed = 0, 1, True, False
    terms: list[DiceTerm] = []
    constant = 0
    while pos < len(source):
        if not source[pos:].strip():
            break
        match = _TOKEN.match(source, pos)
        if not match or match.end() == pos:
            bad = source[pos:].strip()[:12]
            raise _error(
                "format", f"cannot read {bad!r}: type dice such as 3d6, 2d6+3 or 4d6 keep 3", value=bad, what="syntax"
            )
        pos = match.end()
        if match.group("op"):
            if expect_term and (signed or terms or constant):
                raise _error("format", "two signs in a row", value=match.group("op"), what="syntax")
            sign = 1 if match.group("op") == "+" else -1
            expect_term = signed = True
            continue
        signed = False
        if not expect_term:
            raise _error("format", "a + or - is missing between two terms", value=match.group(0).strip(), what="syntax")
        expect_term = False
        if match.group("number"):
            value = _bounded(match.group("number"), MAX_CONSTANT, "constant")
            constant += sign * value
            if abs(constant) > MAX_CONSTANT:
                raise _error(
                    "range", f"the numbers add up to more than {MAX_CONSTANT}", high=MAX_CONSTANT, what="constant"
                )
            continue
        count = _bounded(match.group("count") or "1", MAX_DICE, "dice")
        sides_text = match.group("sides")
        sides = 100 if sides_text == "%" else _bounded(sides_text, MAX_SIDES, "sides")
        if count < 1:
            raise _error("range", "roll at least one die", low=1, value=count, what="dice")
        if sides < 2:
            raise _error("range", "a die has at least 2 sides", low=2, value=sides, what="sides")
        keep = lowest = None
        if match.group("keep"):
            keep = _bounded(match.group("kept"), MAX_DICE, "keep")
            lowest = re.sub(r"\s+", "", match.group("keep").lower()) in ("kl", "keeplowest")
            if not 1 <= keep <= count:
                raise _error(
                    "range",
                    f"can keep from 1 to {count} of {count} dice, got {keep}",
                    low=1,
                    high=count,
                    value=keep,
                    what="keep",
                )
            if keep < count and (count > MAX_KEEP_DICE or sides > MAX_KEEP_SIDES):
                raise _error(
                    "range",
                    f"keeping some dice works with at most {MAX_KEEP_DICE} dice of at most {MAX_KEEP_SIDES} sides",
                    high=MAX_KEEP_DICE,
                    sides=MAX_KEEP_SIDES,
                    what="keep-size",
                )
            if keep == count:
                keep = None
        terms.append(DiceTerm(count, sides, keep, bool(lowest), sign))
        sign = 1
        if len(terms) > MAX_TERMS:
            raise _error("range", f"at most {MAX_TERMS} kinds of dice in one roll", high=MAX_TERMS, what="terms")
    if expect_term:
        raise _error("format", "ends with a sign: add a number or dice after it", what="syntax")
    total_dice = sum(t.count for t in terms)
    if total_dice > MAX_DICE:
        raise _error(
            "range",
            f"at most {MAX_DICE} dice in one roll, got {total_dice}",
            high=MAX_DICE,
            value=total_dice,
            what="dice",
        )
    pips = sum(t.count * t.sides for t in terms)
    if pips > MAX_PIPS:
        raise _error(
            "range",
            f"too many dice for exact odds: the dice times their sides come to {pips}, at most {MAX_PIPS} (e.g. 10d100 or 100d10)",
            high=MAX_PIPS,
            value=pips,
            what="pips",
        )
    return DiceExpression(tuple(terms), constant)


def _bounded(digits: str, high: int, what: str) -> int:
    if len(digits) > len(str(high)) or int(digits) > high:
        raise _error("range", f"{what}: at most {high}", high=high, value=digits[:12], what=what)
    return int(digits)
