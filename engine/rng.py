"""The documented dice generator that seeded rolls and shared links rely on.

Generator ``kostka-dice-v1`` (the derivation is a contract: a link made today
must give the same dice on every device, in CPython and in Pyodide, forever):

1. The seed is an integer ``0 <= seed < 2**64``.
2. ``key = SHA-256(b"kostka-dice-v1:" + ascii(decimal seed))`` (32 bytes).
3. Block ``i`` (``i = 0, 1, 2, ...``) is ``SHA-256(key + i.to_bytes(8, "big"))``;
   it is cut into eight 32-bit big-endian unsigned words, used in order.
4. A die with ``n`` sides takes the next word ``w``; if
   ``w >= 2**32 - (2**32 % n)`` the word is discarded and the next one taken
   (so every face is exactly equally likely); the face is ``w % n + 1``.
5. ``below(n)`` (a number ``0..n-1``, used for sampling weighted outcomes) is
   ``die(n) - 1`` for ``n <= 2**32``.

Each rule system documents the order in which its dice are taken (for example
The One Ring takes the Feat die, then the second Feat die if favoured or
ill-favoured, then the Success dice left to right).

Only :mod:`hashlib` is used, so the generator runs unchanged under Pyodide and
is easy to re-implement elsewhere to check a link by hand.
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata

from .errors import InputError, check_int

__all__ = ["GENERATOR", "MAX_SEED", "Dice", "random_seed", "session_seed"]

GENERATOR = "kostka-dice-v1"
MAX_SEED = 2**64 - 1
_WORD = 2**32


class Dice:
    """A seeded stream of fair dice (see the module docstring for the derivation).

    >>> Dice(42).roll(3, 6)
    (4, 5, 1)
    """

    __slots__ = ("seed", "_key", "_block", "_words", "_position", "words_used")

    def __init__(self, seed: int) -> None:
        self.seed = check_int("seed", seed, 0, MAX_SEED)
        self._key = hashlib.sha256(f"{GENERATOR}:{self.seed}".encode("ascii")).digest()
        self._block = 0
        self._words: list[int] = []
        self._position = 0
        #: How many 32-bit words have been drawn so far (rejections included).
        self.words_used = 0

    def _word(self) -> int:
        if self._position == len(self._words):
            digest = hashlib.sha256(self._key + self._block.to_bytes(8, "big")).digest()
            self._words = [int.from_bytes(digest[i : i + 4], "big") for i in range(0, 32, 4)]
            self._position = 0
            self._block += 1
        word = self._words[self._position]
        self._position += 1
        self.words_used += 1
        return word

    def die(self, sides: int) -> int:
        """One die with faces ``1..sides``."""
        if not 1 <= sides <= _WORD:
            raise InputError("sides", "range", f"a die has from 1 to {_WORD} sides, got {sides}", low=1, high=_WORD)
        limit = _WORD - _WORD % sides
        while True:
            word = self._word()
            if word < limit:
                return word % sides + 1

    def roll(self, count: int, sides: int) -> tuple[int, ...]:
        """``count`` dice with ``sides`` faces each, in the order they were drawn."""
        return tuple(self.die(sides) for _ in range(count))

    def below(self, n: int) -> int:
        """A uniformly chosen integer ``0 <= k < n``."""
        return self.die(n) - 1


def random_seed() -> int:
    """A fresh unpredictable seed (from the operating system / browser crypto)."""
    return secrets.randbits(64)


def session_seed(session_code: str, number: int) -> int:
    """The seed of roll ``number`` of a table session named ``session_code``.

    ``int.from_bytes(SHA-256(b"kostka-session-v1:" + NFC(code) + b":" + ascii(number))[:8], "big")``
    where ``code`` is stripped of surrounding white space. A player cannot pick
    a lucky seed without changing the number, and skipped numbers show.
    """
    if not isinstance(session_code, str) or not session_code.strip():
        raise InputError("session_code", "type", "the session code must be a non-empty text", value=session_code)
    code = unicodedata.normalize("NFC", session_code.strip())
    if len(code) > 64:
        raise InputError("session_code", "range", "the session code is at most 64 characters long", high=64)
    number = check_int("number", number, 1, 10**9)
    digest = hashlib.sha256(f"kostka-session-v1:{code}:{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big")
