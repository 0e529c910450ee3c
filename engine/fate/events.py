"""The events of a Fate & Doom fight: one frozen record per kind, as :class:`~engine.fate.battle.Fight` logs them.

Each record's :meth:`to_dict` is the event's JSON (the ``"event"`` key names its
kind, the other keys in a fixed order); :func:`read_event` reads that JSON back
into its record, and ``read_event(e.to_dict()) == e`` for every event.

========================  ===============  =============================================================
record                    ``"event"``      when
========================  ===============  =============================================================
:class:`Start`            ``start``        the fight begins (the encounter's balance)
:class:`Turn`             ``turn``         a side's turn begins
:class:`Regen`            ``regen``        a creature in a defending position regains 3 life
:class:`Spend`            ``spend``        points spent on an attack, a defence or a recovery
:class:`Attack`           ``attack``       one opposed attack (its :class:`~engine.fate.attack.AttackRecord`)
:class:`ExtraAttack`      ``extra_attack`` the three-attack rule earns the next attack
:class:`Fall`             ``fall``         a creature falls
:class:`Position`         ``position``     re-pairing moves a creature
:class:`Waits`            ``waits``        a creature moved in its own side's turn loses this turn's action
:class:`Recover`          ``recover``      a recovery (its :class:`~engine.fate.attack.RecoverRecord`)
:class:`RoundEnd`         ``round_end``    both sides have had their turn
:class:`End`              ``end``          a side has won, or the round limit is reached
========================  ===============  =============================================================

The ``reason`` texts are the engine's English explanations; the web app says
the same in the reader's language from the other fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from ..errors import InputError
from .attack import AttackRecord, Balance, RecoverRecord

__all__ = [
    "EVENTS",
    "Attack",
    "End",
    "Event",
    "ExtraAttack",
    "Fall",
    "Position",
    "Recover",
    "Regen",
    "RoundEnd",
    "Spend",
    "Start",
    "Turn",
    "Waits",
    "read_event",
    "read_events",
]


@dataclass(frozen=True, slots=True)
class Start:
    """The fight begins; ``balance`` is the encounter's (monsters' life against heroes' maximum life)."""

    balance: Balance

    event: ClassVar[str] = "start"

    def to_dict(self) -> dict[str, Any]:
        return {"event": "start", "balance": self.balance.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Start:
        b = data["balance"]
        return cls(
            Balance(
                b["monsters_life"],
                b["heroes_max_life"],
                Fraction(b["monsters_life"], b["heroes_max_life"]),
                b["verdict"],
            )
        )


@dataclass(frozen=True, slots=True)
class Turn:
    """``side`` ("heroes" or "monsters") begins its turn of round ``round``."""

    round: int
    side: str

    event: ClassVar[str] = "turn"

    def to_dict(self) -> dict[str, Any]:
        return {"event": "turn", "round": self.round, "side": self.side}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Turn:
        return cls(data["round"], data["side"])


@dataclass(frozen=True, slots=True)
class Regen:
    """``creature``, in a defending position, regains ``gained`` life, up to ``life``."""

    creature: str
    gained: int
    life: int

    event: ClassVar[str] = "regen"

    def to_dict(self) -> dict[str, Any]:
        return {"event": "regen", "creature": self.creature, "gained": self.gained, "life": self.life}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Regen:
        return cls(data["creature"], data["gained"], data["life"])


@dataclass(frozen=True, slots=True)
class Spend:
    """``creature`` spends ``points`` of its ``kind`` ("favour" or "stoutness") on ``purpose``
    ("attack", "defence" or "recover"), ``left`` remaining. Its JSON names the purpose ``for``."""

    creature: str
    points: int
    kind: str
    purpose: str
    left: int

    event: ClassVar[str] = "spend"

    def to_dict(self) -> dict[str, Any]:
        return {
            "event": "spend",
            "creature": self.creature,
            "points": self.points,
            "kind": self.kind,
            "for": self.purpose,
            "left": self.left,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Spend:
        return cls(data["creature"], data["points"], data["kind"], data["for"], data["left"])


_ATTACK_FIELDS = tuple(AttackRecord.__dataclass_fields__)
_RECOVER_FIELDS = tuple(RecoverRecord.__dataclass_fields__)


@dataclass(frozen=True, slots=True)
class Attack:
    """Attack number ``attack_number`` (1 to 3) of a creature's turn in round ``round``; the blow is ``record``.

    Its JSON is the round and the number followed by every field of the record."""

    round: int
    attack_number: int
    record: AttackRecord

    event: ClassVar[str] = "attack"

    def to_dict(self) -> dict[str, Any]:
        return {"event": "attack", "round": self.round, "attack_number": self.attack_number, **self.record.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Attack:
        fields = {k: data[k] for k in _ATTACK_FIELDS if k in data}
        fields["attack_faces"] = tuple(data["attack_faces"])
        fields["defence_faces"] = tuple(data["defence_faces"])
        return cls(data["round"], data["attack_number"], AttackRecord(**fields))


@dataclass(frozen=True, slots=True)
class ExtraAttack:
    """``creature`` earns attack number ``attack_number`` on ``target``; with ``after_kill`` the hit felled
    its target and the attack goes on to the next enemy faced (``target`` is then ``None``)."""

    creature: str
    target: str | None
    attack_number: int
    reason: str
    after_kill: bool = False

    event: ClassVar[str] = "extra_attack"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "event": "extra_attack",
            "creature": self.creature,
            "target": self.target,
            "attack_number": self.attack_number,
        }
        if self.after_kill:
            out["after_kill"] = True
        out["reason"] = self.reason
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ExtraAttack:
        return cls(
            data["creature"], data["target"], data["attack_number"], data["reason"], bool(data.get("after_kill"))
        )


@dataclass(frozen=True, slots=True)
class Fall:
    """``creature`` falls, struck by ``by``."""

    creature: str
    by: str

    event: ClassVar[str] = "fall"

    def to_dict(self) -> dict[str, Any]:
        return {"event": "fall", "creature": self.creature, "by": self.by}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Fall:
        return cls(data["creature"], data["by"])


@dataclass(frozen=True, slots=True)
class Position:
    """Re-pairing moves ``creature`` from ``origin`` ("defending", or "broken formation") to ``to``
    ("attacking"); a creature of a broken formation joins ``formation`` (1-based). Its JSON names
    the origin ``from``."""

    creature: str
    origin: str
    to: str
    reason: str
    formation: int | None = None

    event: ClassVar[str] = "position"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": "position", "creature": self.creature, "from": self.origin, "to": self.to}
        if self.formation is not None:
            out["formation"] = self.formation
        out["reason"] = self.reason
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Position:
        return cls(data["creature"], data["from"], data["to"], data["reason"], data.get("formation"))


@dataclass(frozen=True, slots=True)
class Waits:
    """``creature`` was moved during its own side's turn: it acts from the next turn."""

    creature: str
    reason: str

    event: ClassVar[str] = "waits"

    def to_dict(self) -> dict[str, Any]:
        return {"event": "waits", "creature": self.creature, "reason": self.reason}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Waits:
        return cls(data["creature"], data["reason"])


@dataclass(frozen=True, slots=True)
class Recover:
    """A creature recovers instead of attacking in round ``round``; the roll is ``record``."""

    round: int
    record: RecoverRecord

    event: ClassVar[str] = "recover"

    def to_dict(self) -> dict[str, Any]:
        return {"event": "recover", "round": self.round, **self.record.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Recover:
        fields = {k: data[k] for k in _RECOVER_FIELDS}
        fields["faces"] = tuple(data["faces"])
        return cls(data["round"], RecoverRecord(**fields))


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """Both sides have had their turn of round ``round``."""

    round: int

    event: ClassVar[str] = "round_end"

    def to_dict(self) -> dict[str, Any]:
        return {"event": "round_end", "round": self.round}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundEnd:
        return cls(data["round"])


@dataclass(frozen=True, slots=True)
class End:
    """The fight ends in round ``round``: ``winner`` "heroes" or "monsters", or ``None`` with a ``reason``
    (the round limit reached)."""

    winner: str | None
    round: int
    reason: str = ""

    event: ClassVar[str] = "end"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": "end", "winner": self.winner, "round": self.round}
        if self.reason:
            out["reason"] = self.reason
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> End:
        return cls(data["winner"], data["round"], data.get("reason", ""))


Event = Start | Turn | Regen | Spend | Attack | ExtraAttack | Fall | Position | Waits | Recover | RoundEnd | End

#: ``"event"`` name -> its record class.
EVENTS: dict[str, type[Event]] = {
    cls.event: cls
    for cls in (Start, Turn, Regen, Spend, Attack, ExtraAttack, Fall, Position, Waits, Recover, RoundEnd, End)
}


def read_event(data: Any) -> Event:
    """An event's JSON (:meth:`to_dict`) read back into its record; a bad one raises :class:`InputError`."""
    if isinstance(data, Event):
        return data
    if not isinstance(data, dict) or data.get("event") not in EVENTS:
        kind = data.get("event") if isinstance(data, dict) else None
        raise InputError("event", "choice", f"not a fight event: {kind!r}", value=kind, allowed=sorted(EVENTS))
    try:
        return EVENTS[data["event"]].from_dict(data)
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as error:
        raise InputError("event", "format", f"a {data['event']} event without its fields ({error})") from None


def read_events(data: Any) -> list[Event]:
    """A list of events' JSON read back (see :func:`read_event`)."""
    if not isinstance(data, list):
        raise InputError("events", "format", "expected a list of fight events")
    return [read_event(e) for e in data]
