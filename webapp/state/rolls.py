"""The one place rolls are made: :class:`RollService`, ``(check, seed)`` -> a logged record. No Panel import."""

from __future__ import annotations

from typing import Any

import param

import engine
from engine import random_seed

from .log import LogEntry, RollLog, now
from .session import SessionState

__all__ = ["RollService"]


class RollService(param.Parameterized):
    """The one place rolls are made: ``(check, seed)`` -> a logged record.

    The seed may come from outside (a shared link, a session code); otherwise
    a fresh one is drawn.
    """

    log = param.ClassSelector(class_=RollLog)
    counter = param.Integer(default=0)
    session = param.ClassSelector(class_=SessionState, doc="The game master's session code and running numbers")

    def __init__(self, **params: Any) -> None:
        params.setdefault("log", RollLog())
        params.setdefault("session", SessionState())
        super().__init__(**params)
        # rolls restored from the browser keep their numbers: new ones follow them
        self.log.param.watch(lambda e: self._follow(), "entries")

    def _follow(self) -> None:
        top = max((e.number for e in self.log.entries), default=0)
        if top > self.counter:
            self.counter = top

    def next_seed(self, seed: int | None) -> int:
        return random_seed() if seed is None else seed

    def _seed_and_number(
        self, check: Any, character: str, seed: int | None, secret: bool
    ) -> tuple[int, dict[str, Any]]:
        """With a session code (and no seed given), the next running number and the session's seed for it.

        A secret roll takes a number but a fresh random seed: the seed of a
        session roll can be worked out by everyone holding the code.
        """
        code = self.session.code
        if not code or seed is not None:
            return self.next_seed(seed), {}
        engine.roll_check(check, 0)  # a forbidden roll is refused before it spends a number
        number = self.session.next_number(character)
        seed = random_seed() if secret else engine.links.session_roll_seed(code, number, check, character)
        return seed, {"session_code": code, "session_number": number}

    def roll(
        self, check: Any, *, character: str, ability: str, seed: int | None = None, secret: bool = False
    ) -> LogEntry:
        seed, session = self._seed_and_number(check, character, seed, secret)
        record = _roll_check(check, seed)
        self.counter += 1
        entry = LogEntry(
            number=self.counter,
            time=now(),
            system=check.system,
            character=character,
            ability=ability,
            check=check,
            seed=seed,
            roll=record,
            secret=secret,
            revealed=not secret,
            **session,
        )
        self.log.add(entry)
        return entry

    def contest(
        self, contest: Any, *, character: str, ability: str, opponent: str, seed: int | None = None
    ) -> LogEntry:
        seed, session = self._seed_and_number(contest, character, seed, False)
        record = engine.roll_check(contest, seed)
        self.counter += 1
        entry = LogEntry(
            number=self.counter,
            time=now(),
            system="gurps",
            character=character,
            ability=ability,
            check=contest,
            seed=seed,
            roll=record,
            kind="contest",
            extra={"opponent": opponent},
            **session,
        )
        self.log.add(entry)
        return entry

    def free_dice(self, expression: Any, *, character: str = "", seed: int | None = None) -> LogEntry:
        """Roll a free dice expression (:class:`engine.roller.DiceExpression`) as ``character``'s roll
        from ``seed`` (else a fresh one); the entry goes to the log. With a session code (and no seed
        given) it takes the character's next running number and the session's seed for it, as every
        roll does."""
        session: dict[str, Any] = {}
        code = self.session.code
        if code and seed is None:
            number = self.session.next_number(character)
            seed = engine.links.session_roll_seed(code, number, expression, character)
            session = {"session_code": code, "session_number": number}
        seed = self.next_seed(seed)
        # a session roll draws its dice in the canonical order, so every way of writing the dice rolls alike
        record = expression.roll_canonical(seed) if session else expression.roll(seed)
        self.counter += 1
        entry = LogEntry(
            number=self.counter,
            time=now(),
            system="dice",
            character=character,
            ability=record.expression,
            check=expression,
            seed=seed,
            roll=record,
            kind="dice",
            **session,
        )
        self.log.add(entry)
        return entry


def _roll_check(check: Any, seed: int) -> Any:
    return engine.roll_check(check, seed)
