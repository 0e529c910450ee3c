"""The roll log: one :class:`LogEntry` per roll, the session's :class:`RollLog` and its browser storage. No Panel import."""

from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass, field
from typing import Any

import param

import engine
from engine import InputError
from engine.documents import parse_json, roll_entry_check, validate_roll_entry
from engine.errors import check_int

from .forms import FORMAT_VERSION
from .merge import merge_sets

__all__ = ["MAX_KEPT_ROLLS", "STORED_LOG_FORMAT", "LogEntry", "RollLog", "now"]


@dataclass
class LogEntry:
    """One roll as the log keeps it: when, who, the check, the seed and the engine's record."""

    number: int
    time: str
    system: str
    character: str
    ability: str
    check: Any
    seed: int
    roll: Any
    secret: bool = False
    revealed: bool = True
    kind: str = "roll"  # "roll" or "contest"
    extra: dict[str, Any] = field(default_factory=dict)
    #: The game master's session code and this roll's running number for its character (see webapp.state.session).
    session_code: str | None = None
    session_number: int | None = None

    @property
    def hidden(self) -> bool:
        return self.secret and not self.revealed

    def to_dict(self) -> dict[str, Any]:
        record = self.roll.to_dict() if hasattr(self.roll, "to_dict") else self.roll
        return {
            "number": self.number,
            "time": self.time,
            "system": self.system,
            "character": self.character,
            "ability": self.ability,
            "kind": self.kind,
            "check": self.check.to_dict() if hasattr(self.check, "to_dict") else self.check,
            **({} if self.hidden else {"seed": self.seed}),  # an unrevealed secret keeps its seed to itself
            "secret": self.secret,
            "revealed": self.revealed,
            "result": None if self.hidden else record,
            **({"extra": self.extra} if self.extra else {}),
        }


#: The most rolls the log keeps (in the browser too); older ones are dropped first, with a note.
MAX_KEPT_ROLLS = 500
STORED_LOG_FORMAT = "kostka-stored-log"


class RollLog(param.Parameterized):
    """The session's rolls, newest last, at most :data:`MAX_KEPT_ROLLS` (the oldest dropped first)."""

    entries = param.List(default=[], item_type=LogEntry)
    dropped = param.Integer(
        default=0, bounds=(0, None), doc="How many of the oldest rolls were dropped to keep the log short"
    )
    cleared = param.Parameter(default=None, doc="(entries, dropped) as they were before the last Clear, for Undo")

    def add(self, entry: LogEntry) -> None:
        self._keep([*self.entries, entry], self.dropped)

    def _keep(self, entries: list[LogEntry], dropped: int) -> None:
        over = max(0, len(entries) - MAX_KEPT_ROLLS)
        self.param.update(entries=entries[over:], dropped=dropped + over)

    def clear(self) -> None:
        """Empty the log; :meth:`undo_clear` brings it back."""
        if self.entries or self.dropped:
            self.cleared = (list(self.entries), self.dropped)
        self.param.update(entries=[], dropped=0)

    def undo_clear(self) -> None:
        """Bring back the rolls of the last Clear, before any rolled since."""
        if self.cleared is None:
            return
        entries, dropped = self.cleared
        self.cleared = None
        self._keep([*entries, *self.entries], dropped + self.dropped)

    def to_storage(self) -> str:
        """The log as the browser keeps it: every roll with its seed (a secret's too: it is this
        device's own) and its session number. Fight steps are not kept."""
        rolls = []
        for entry in self.entries:
            if entry.kind not in ("roll", "contest"):
                continue
            item: dict[str, Any] = {"entry": {**entry.to_dict(), "seed": entry.seed}}
            if entry.session_code:
                item["session"] = [entry.session_code, entry.session_number]
            rolls.append(item)
        return json.dumps(
            {"format": STORED_LOG_FORMAT, "dropped": self.dropped, "rolls": rolls},
            ensure_ascii=False,
            separators=(",", ":"),
        )

    def load_storage(self, text: str) -> bool:
        """Restore the log from :meth:`to_storage`'s text; True when every roll was read.

        Each roll is checked like an imported log's (its result must be the engine's roll of its
        check and seed); one that is not is left out. Raises InputError (nothing changed) when the
        text is not a stored log at all.
        """
        data = parse_json(text)  # size and nesting checked before parsing
        if (
            not isinstance(data, dict)
            or data.get("format") != STORED_LOG_FORMAT
            or not isinstance(data.get("rolls"), list)
        ):
            raise InputError("log", "format", "not a stored roll log")
        whole = True
        try:
            dropped = check_int("log.dropped", data.get("dropped", 0), 0, 10**9)
        except InputError:
            dropped, whole = 0, False
        entries: list[LogEntry] = []
        for item in data["rolls"]:
            try:
                if not isinstance(item, dict) or set(item) - {"entry", "session"}:
                    raise InputError("log.rolls", "format", "not a stored roll")
                roll = validate_roll_entry(item.get("entry"), "log.rolls")
                if "seed" not in roll:
                    raise InputError("log.rolls", "format", "a stored roll keeps its seed")
                code = number = None
                if "session" in item:
                    session = item["session"]
                    if not isinstance(session, list) or len(session) != 2:
                        raise InputError("log.rolls", "format", "not a session number")
                    code = engine.links.clean_text(
                        "session", session[0], engine.links.MAX_CODE_LENGTH, engine.links.MAX_CODE_BYTES, required=True
                    )
                    number = check_int("session", session[1], 1, engine.links.MAX_NUMBER)
                check = roll_entry_check(roll)
                entries.append(
                    LogEntry(
                        number=roll["number"],
                        time=roll["time"],
                        system=roll["system"],
                        character=roll["character"],
                        ability=roll["ability"],
                        check=check,
                        seed=roll["seed"],
                        roll=engine.roll_check(check, roll["seed"]),
                        secret=roll["secret"],
                        revealed=roll["revealed"],
                        kind=roll["kind"],
                        extra=roll.get("extra", {}),
                        session_code=code,
                        session_number=number,
                    )
                )
            except InputError:
                whole = False
        self.cleared = None
        self._keep(entries, dropped)
        return whole and len(entries) == len(data["rolls"])

    def merge_storage(self, base_text: str, theirs_text: str) -> None:
        """Merge the log another tab stored (``theirs_text``) into this one, from ``base_text``, what
        this tab last knew the browser held: rolls either tab made are kept, rolls either cleared are
        gone, in the order they were made, numbered again from 1. Raises InputError (nothing
        changed) when ``theirs_text`` is not a stored log."""
        theirs = RollLog()
        theirs.load_storage(theirs_text)
        base = RollLog()
        try:
            base.load_storage(base_text) if base_text else None
        except InputError:
            pass
        merged = merge_sets(base.entries, self.entries, theirs.entries, key=_identity)
        shown = {_identity(e) for e in theirs.entries if e.revealed}
        revealed = [e for e in merged if not e.revealed and _identity(e) in shown]  # revealed there
        for entry in revealed:
            entry.revealed = True
        if [_identity(e) for e in merged] == [_identity(e) for e in self.entries]:
            if revealed:
                self.param.trigger("entries")
            return
        merged.sort(key=lambda e: e.time)  # stable: rolls of one second keep the order they had
        for number, entry in enumerate(merged, 1):
            entry.number = number
        self._keep(merged, max(self.dropped, theirs.dropped))

    def reveal(self, number: int) -> None:
        for entry in self.entries:
            if entry.number == number:
                entry.revealed = True
        self.param.trigger("entries")

    def to_json(self) -> str:
        return json.dumps(
            {"format": "kostka-log", "version": FORMAT_VERSION, "rolls": [e.to_dict() for e in self.entries]},
            ensure_ascii=False,
            indent=1,
        )


def now() -> str:
    """The local time as the log shows it (``2026-01-31 20:15:07``)."""
    return _dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M:%S")


def _identity(entry: LogEntry) -> tuple[Any, ...]:
    """What tells one roll from another in two tabs' logs (their running numbers may be the same)."""
    return (entry.time, entry.seed, entry.system, entry.character, entry.kind, entry.session_code, entry.session_number)
