"""Share links in the web app: what a roll's link is, what an opened link shows, session numbering.

No Panel import: these are ``param`` models and plain functions over
:mod:`engine.links`, the one door for links. A link is never trusted: opening
one decodes it strictly, rolls again with the engine and keeps the
:class:`engine.links.Verdict`; a link that cannot be read becomes an
:class:`engine.InputError` kept on the model, and nothing else changes.

The session code and its running numbers are :mod:`webapp.state.session`'s; here is the
numbering report's store of the session links seen.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import param

from engine import InputError, links
from engine.documents import FORMAT, VERSION, nesting_depth, read_document, validate_document

from .session import SessionState
from .stored import keep_aside, read_stored

__all__ = [
    "MAX_SEEN",
    "NUMBERING_KEY",
    "Opened",
    "Share",
    "ShareModel",
    "check_link",
    "entry_link",
    "export_characters",
    "export_log",
    "import_characters",
    "keep_aside",
    "load_stored",
    "numbering_json",
    "open_link",
    "read_numbering",
]

#: The most links kept for the numbering report (opened links and own rolls).
MAX_SEEN = 500


# -- links of log entries ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Share:
    """What the share panel shows for one roll: the link to give out, and for a secret roll the GM's part.

    ``link`` is the payload to share (a sealed link for a hidden secret roll);
    ``reveal`` and ``revealed`` (the reveal code and the revealed link) are set
    for a secret roll once the game master has revealed it.
    """

    link: str
    kind: str
    reveal: str = ""
    revealed: str = ""


#: The log entries that have share links (free dice rolls carry their expression, not a label).
SHARED_KINDS = ("roll", "contest", "dice")


def _label(entry: Any) -> str:
    if getattr(entry, "kind", "roll") == "dice":
        return ""
    return links.link_text("label", entry.ability or "", links.MAX_LABEL_LENGTH, links.MAX_LABEL_BYTES)


def entry_link(entry: Any) -> Share:
    """The share link of a log entry (a roll, a contest or free dice); raises InputError for fights."""
    if getattr(entry, "kind", "roll") not in SHARED_KINDS:
        raise InputError("entry", "choice", "only rolls and contests have share links", allowed=list(SHARED_KINDS))
    session = (
        dict(session_code=entry.session_code, number=entry.session_number)
        if getattr(entry, "session_code", None)
        else {}
    )
    if entry.secret:
        sealed = links.encode_secret_link(
            entry.check, seed=entry.seed, name=entry.character, label=_label(entry), **session
        )
        if entry.revealed:
            return Share(sealed.link, "secret", sealed.reveal, sealed.revealed_link)
        return Share(sealed.link, "secret")
    if session:
        payload = links.encode_roll_link(
            entry.check, seed=entry.seed, name=entry.character, label=_label(entry), **session
        )
    else:
        payload = links.encode_roll_link(entry.check, seed=entry.seed, name=entry.character, label=_label(entry))
    return Share(payload, "roll")


def check_link(check: Any, *, name: str = "", label: str = "") -> str:
    """A prepared check's link payload."""
    return links.encode_check_link(check, name=name, label=label)


# -- opening a link ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Opened:
    """An opened link: the decoded link and its verdict, or the error that stopped reading it."""

    text: str
    link: links.Link | None = None
    verdict: links.Verdict | None = None
    error: InputError | None = None

    #: For a revealed secret roll whose dice follow from its seed: whether a sealed link this device
    #: has seen is its own and opens with its seed (True), or none was seen (False). A revealed
    #: link's digest has no key, so on its own it only shows that its dice follow from its seed.
    sealed_seen: bool = False

    @property
    def status(self) -> str:
        """``"unreadable"``, ``"verified"``, ``"altered"``, ``"sealed"``, or ``"revealed"``: a revealed
        secret roll whose dice follow from its seed, but whose sealed link this device has not seen
        (so nothing shows the seed was fixed before the roll)."""
        if self.error is not None or self.verdict is None:
            return "unreadable"
        if self.verdict.verified and self.link is not None and self.link.kind is links.Kind.REVEALED:
            return "verified" if self.sealed_seen else "revealed"
        return str(self.verdict.status)

    @property
    def roll(self) -> Any:
        """The engine's roll of the link (None for a prepared check, a sealed or an unreadable link)."""
        return None if self.verdict is None else self.verdict.roll


def _sealed_fields(link: links.Link) -> tuple[Any, ...]:
    """What a sealed link and its revealed link share: the roll asked for, not its seed."""
    return (link.system, link.check, link.name, link.label, link.session_code, link.number)


def open_link(text: Any, reveal: Any = None, sealed: Any = ()) -> Opened:
    """Decode and verify ``text`` (an address, ``r=…`` or a bare payload); never raises.

    A revealed secret roll is checked against the sealed links this device has seen (``sealed``,
    payloads): its own sealed link (the same roll asked for) must open with its seed, or the
    link is altered (``"sealed"``); with none seen it is ``"revealed"``, not verified."""
    shown = text[: links.MAX_LINK_TEXT] if isinstance(text, str) else ""
    try:
        verdict = links.verify(text, reveal if reveal not in (None, "") else None)
    except InputError as error:
        return Opened(shown, error=error)
    link = verdict.link
    if link.kind is not links.Kind.REVEALED or not verdict.verified:
        return Opened(shown, link, verdict)
    own = []
    for payload in sealed:
        try:
            candidate = links.decode_link(payload)
        except InputError:
            continue
        if candidate.kind is links.Kind.SECRET and _sealed_fields(candidate) == _sealed_fields(link):
            own.append(candidate)
    if not own:
        return Opened(shown, link, verdict)
    if any(candidate.commitment == link.commitment for candidate in own):
        return Opened(shown, link, verdict, sealed_seen=True)
    altered = links.Verdict(links.Status.ALTERED, link, ("sealed",))
    return Opened(shown, link, altered, sealed_seen=True)


class ShareModel(param.Parameterized):
    """The app's side of sharing: the session, the opened link and the links seen for the numbering report."""

    session = param.ClassSelector(class_=SessionState)
    opened = param.Parameter(default=None, doc="The Opened link on screen, or None")
    seen = param.List(default=[], doc="Link payloads seen (own rolls and opened links), oldest first")
    sealed = param.List(default=[], doc="Sealed secret links seen on this page without a session code")

    def __init__(self, **params: Any) -> None:
        params.setdefault("session", SessionState())
        super().__init__(**params)
        self.param.watch(self._recheck, ["seen", "sealed"])

    def _recheck(self, *_: Any) -> None:
        """A revealed link on screen is checked again when sealed links arrive (the numbering kept
        in the browser is read after the address's link is opened)."""
        current = self.opened
        if current is None or current.link is None or current.link.kind is not links.Kind.REVEALED:
            return
        again = open_link(current.text, None, self.sealed_links())
        if (again.status, again.sealed_seen) != (current.status, current.sealed_seen):
            self.opened = again

    def open(self, text: Any, reveal: Any = None) -> Opened:
        opened = open_link(text, reveal, self.sealed_links())
        self.opened = opened
        if opened.link is not None and opened.link.session_code is not None:
            self.remember(opened.link.payload)
        elif opened.link is not None and opened.link.kind is links.Kind.SECRET:
            self.keep_sealed(opened.link.payload)
        return opened

    def keep_sealed(self, payload: str) -> None:
        """Keep a sealed link without a session code (one opened, or this device's own secret roll)
        for its revealed link to be checked against (a session's are in :attr:`seen`)."""
        if payload and payload not in self.sealed:
            self.sealed = [*self.sealed, payload][-MAX_SEEN:]

    def sealed_links(self) -> list[str]:
        """Every sealed secret link this device has seen: in the numbering and opened here."""
        return [*self.sealed, *(p for p in self.seen if p not in self.sealed)]

    def reveal(self, code: Any) -> Opened:
        """Open the sealed secret on screen with the game master's reveal code (or revealed link)."""
        current = self.opened
        if current is None or current.link is None:
            raise InputError("reveal", "rule", "no secret roll is open")
        opened = open_link(current.link.payload, code)
        # A code that cannot be read (a letter too many or too few, a stray character: taken for a
        # link of its own, or not a code at all) is as wrong as one that does not fit: either way
        # the sealed link stays on screen, untouched, for the game master to try again.
        if opened.error is not None or (opened.verdict is not None and "reveal" in opened.verdict.mismatches):
            raise InputError("reveal", "rule", "this reveal code does not open this secret roll")
        self.opened = opened
        return opened

    def close(self) -> None:
        self.opened = None

    def remember(self, payload: str, again: bool = True) -> None:
        """Keep a session link for the numbering; ``again``: a link seen before is counted once more
        (the same link opened twice), else it is kept once (this device's own roll)."""
        if payload and (again or payload not in self.seen):
            self.seen = [*self.seen, payload][-MAX_SEEN:]

    def add_links(self, text: Any) -> tuple[int, int]:
        """The game master's batch of links, one per line: (session links kept, lines not read)."""
        added = bad = 0
        lines = [line.strip() for line in str(text or "").splitlines()[:MAX_SEEN] if line.strip()]
        for line in lines:
            opened = open_link(line)
            if opened.link is None or opened.link.session_code is None:
                bad += 1
                continue
            self.remember(opened.link.payload)
            added += 1
        return added, bad

    def codes(self) -> list[str]:
        """The session codes of the links kept, in the order first seen."""
        return list(dict.fromkeys(c for c in map(session_code_of, self.seen) if c is not None))

    def forget(self, code: str) -> None:
        """Clear a finished session's links from the numbering."""
        self.seen = [p for p in self.seen if session_code_of(p) != code]

    def times_opened(self) -> dict[tuple[str, str, int], int]:
        """(code, name key, number) -> how often the very same link was seen, where more than once.

        The name key is :func:`engine.links.name_key`, as the numbering groups names by it."""
        counts: dict[str, int] = {}
        for payload in self.seen:
            counts[payload] = counts.get(payload, 0) + 1
        out = {}
        for payload, n in counts.items():
            if n > 1:
                link = links.decode_link(payload)
                if link.number is not None:
                    key = (link.session_code or "", links.name_key(link.name), link.number)
                    out[key] = out.get(key, 0) + n
        return out

    def gaps(self, entries: Any = ()) -> list[links.SessionNumbers]:
        """The numbering per (session code, character) over the log's rolls and the links opened."""
        payloads = list(self.seen)
        for entry in entries:
            if getattr(entry, "session_code", None) and getattr(entry, "kind", "roll") in SHARED_KINDS:
                try:
                    payloads.append(entry_link(entry).link)
                except InputError:
                    continue
        return links.find_gaps(dict.fromkeys(payloads))


# -- the numbering kept in the browser ---------------------------------------------------------------------

#: Browser storage of every session link this device has seen (opened, pasted or rolled here), so the
#: numbering report covers the whole evening, across reloads and tabs.
NUMBERING_KEY = "kostka.numbering"
MAX_NUMBERING_TEXT = 400_000


def read_numbering(text: Any) -> list[str]:
    """The stored session links (``{"version": 1, "links": [payload, …]}``); raises InputError, all or nothing.

    Bounded before parsing (size, count, each payload's length) and every link decoded, so what is
    kept is exactly what the report can read.
    """
    if not isinstance(text, str) or len(text) > MAX_NUMBERING_TEXT:
        raise InputError("numbering", "format", "the stored numbering is not readable text")
    if nesting_depth(text) > 2:  # counted before parsing: deep JSON overflows the browser's stack
        raise InputError("numbering", "format", "the stored numbering has the wrong shape")
    try:
        data = json.loads(text)
    except ValueError:
        raise InputError("numbering", "format", "the stored numbering is not JSON") from None
    raw = data.get("links") if isinstance(data, dict) else None
    if not isinstance(raw, list) or len(raw) > MAX_SEEN:
        raise InputError("numbering", "format", "the stored numbering has the wrong shape")
    out = []
    for item in raw:
        if not isinstance(item, str) or len(item) > links.MAX_PAYLOAD_LENGTH:
            raise InputError("numbering", "format", "a stored link is not a link")
        link = links.decode_link(item)  # an unreadable one raises InputError
        if link.session_code is None:
            raise InputError("numbering", "format", "a stored link has no session code")
        out.append(item)
    return out


def numbering_json(seen: list[str]) -> str:
    return json.dumps({"version": 1, "links": list(seen)[-MAX_SEEN:]}, separators=(",", ":"))


def session_code_of(payload: str) -> str | None:
    try:
        return links.decode_link(payload).session_code
    except InputError:
        return None


# -- stored data --------------------------------------------------------------------------------------


def load_stored(
    state: Any, session: SessionState, values: dict[str, str], stamp: str, characters_key: str, session_key: str
) -> tuple[dict[str, str], list[str]]:
    """Apply the stored characters and session to ``state`` and ``session``
    (:func:`webapp.state.stored.read_stored`). Returns the new storage values and the keys copied aside."""
    read = read_stored(state, session, values, stamp, characters_key, session_key)
    return read.values, read.kept + read.partial


# -- files ----------------------------------------------------------------------------------------------


def export_characters(state: Any) -> str:
    """The characters as a ``{"format": "kostka", "version": N, "kind": "characters"}`` document, the
    same as the browser stores (:meth:`AppState.characters_document`: a field still being typed on a
    form at its last valid value), indented."""
    return json.dumps(state.characters_document().to_dict(), ensure_ascii=False, indent=1)


def export_log(entries: Any) -> str:
    """The roll log as a ``kind: "log"`` document; an unrevealed secret roll has neither result nor seed."""
    rolls = []
    for entry in entries:
        if getattr(entry, "kind", "roll") not in ("roll", "contest"):
            continue  # fight records are not log documents (yet)
        data = entry.to_dict()
        if entry.hidden:
            data.pop("seed", None)
            data["result"] = None
        rolls.append(data)
    doc = validate_document({"format": FORMAT, "version": VERSION, "kind": "log", "rolls": rolls}, lenient=True)
    return json.dumps(doc.to_dict(), ensure_ascii=False, indent=1)


def import_characters(state: Any, data: Any) -> int:
    """Add the characters of an imported file (any supported version); raises InputError, nothing changed."""
    return int(state.load_document(read_document(data, kind="characters"), merge=True))
