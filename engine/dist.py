"""Exact discrete distributions: outcome -> integer weight.

Immutable; probabilities come out as :class:`fractions.Fraction` and floats
only at the edges (``to_floats``). Sampling draws an integer below the total
weight from a :class:`~engine.rng.Dice` and walks the cumulative weights, so a
seed gives the same outcome everywhere.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from math import gcd
from typing import Any, Generic, TypeVar

from .rng import Dice

__all__ = ["Dist"]

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)


class Dist(Generic[T]):
    """An immutable map from outcomes to positive integer weights."""

    __slots__ = ("_weights", "_total", "_cumulative")

    def __init__(self, weights: Mapping[T, int] | Iterable[tuple[T, int]]) -> None:
        items = weights.items() if isinstance(weights, Mapping) else weights
        merged: dict[T, int] = {}
        for outcome, weight in items:
            if weight < 0:
                raise ValueError("weights must not be negative")
            if weight:
                merged[outcome] = merged.get(outcome, 0) + weight
        if not merged:
            raise ValueError("a distribution needs at least one outcome with positive weight")
        try:
            self._weights = dict(sorted(merged.items()))
        except TypeError:
            self._weights = merged
        self._total = sum(self._weights.values())
        self._cumulative: list[int] | None = None

    # -- construction -------------------------------------------------------
    @classmethod
    def die(cls, sides: int) -> Dist[int]:
        """A fair die with faces ``1..sides``."""
        return Dist({face: 1 for face in range(1, sides + 1)})

    @classmethod
    def constant(cls, outcome: T) -> Dist[T]:
        return cls({outcome: 1})

    @classmethod
    def enumerate(cls, dice: Iterable[Iterable[T]], combine: Callable[..., U]) -> Dist[U]:
        """Brute force: every combination of faces, each equally likely."""
        counts: dict[U, int] = {}
        for faces in itertools.product(*dice):
            outcome = combine(*faces)
            counts[outcome] = counts.get(outcome, 0) + 1
        return Dist(counts)

    # -- reading ------------------------------------------------------------
    @property
    def total(self) -> int:
        """The sum of all weights (the denominator of every probability)."""
        return self._total

    def __iter__(self) -> Iterator[T]:
        return iter(self._weights)

    def __len__(self) -> int:
        return len(self._weights)

    def __contains__(self, outcome: object) -> bool:
        return outcome in self._weights

    def items(self) -> Iterable[tuple[T, int]]:
        return self._weights.items()

    def weight(self, outcome: T) -> int:
        return self._weights.get(outcome, 0)

    def prob(self, outcome: T) -> Fraction:
        return Fraction(self._weights.get(outcome, 0), self._total)

    def prob_where(self, predicate: Callable[[T], bool]) -> Fraction:
        return Fraction(sum(w for o, w in self._weights.items() if predicate(o)), self._total)

    def probabilities(self) -> dict[T, Fraction]:
        return {o: Fraction(w, self._total) for o, w in self._weights.items()}

    def to_floats(self) -> dict[T, float]:
        return {o: w / self._total for o, w in self._weights.items()}

    def mean(self: Dist[int]) -> Fraction:
        return Fraction(sum(o * w for o, w in self._weights.items()), self._total)

    def reduced(self) -> Dist[T]:
        """The same distribution with weights divided by their common factor."""
        common = 0
        for w in self._weights.values():
            common = gcd(common, w)
        return Dist({o: w // common for o, w in self._weights.items()})

    # -- transforming -------------------------------------------------------
    def map(self, f: Callable[[T], U]) -> Dist[U]:
        out: dict[U, int] = {}
        for o, w in self._weights.items():
            key = f(o)
            out[key] = out.get(key, 0) + w
        return Dist(out)

    def combine(self, other: Dist[U], f: Callable[[T, U], Any]) -> Dist[Any]:
        """The distribution of ``f(a, b)`` for independent ``a ~ self``, ``b ~ other``."""
        out: dict[Any, int] = {}
        for a, wa in self._weights.items():
            for b, wb in other._weights.items():
                key = f(a, b)
                out[key] = out.get(key, 0) + wa * wb
        return Dist(out)

    def __add__(self, other: Dist[Any]) -> Dist[Any]:
        return self.combine(other, lambda a, b: a + b)

    def repeat_sum(self, count: int) -> Dist[Any]:
        """The sum of ``count`` independent copies (``count >= 0``)."""
        result: Dist[Any] = Dist.constant(0)
        for _ in range(count):
            result = result + self
        return result

    # -- sampling -----------------------------------------------------------
    def sample(self, dice: Dice) -> T:
        """One outcome, drawn with ``dice.below(total)`` over cumulative weights."""
        if self._cumulative is None:
            self._cumulative = list(itertools.accumulate(self._weights.values()))
        index = bisect.bisect_right(self._cumulative, dice.below(self._total))
        return list(self._weights)[index]

    # -- comparing ----------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dist):
            return NotImplemented
        return self.probabilities() == other.probabilities()

    def __hash__(self) -> int:
        return hash(frozenset(self.probabilities().items()))

    def __repr__(self) -> str:
        body = ", ".join(f"{o!r}: {w}" for o, w in self._weights.items())
        return f"Dist({{{body}}})"
