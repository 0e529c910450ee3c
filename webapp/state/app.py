"""The whole app's state: the system on screen, one desk and roster per system, the monsters, the
rolls; stored and imported characters; the screen as an address and back. No Panel import.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

import param

from engine import InputError, gurps
from engine.documents import FORMAT, Document, parse_json, read_document, validate_document

from ..i18n import N_
from .address import MAX_WRITTEN
from .drafts import Sheet, drafts_json, read_drafts
from .fate import FateDesk
from .fight import MonsterSheet
from .forms import MAX_CHARACTERS, SYSTEMS, Form, as_form
from .gurps import GurpsCharacter, GurpsDesk
from .log import LogEntry
from .merge import merge_rows
from .one_ring import OR_SKILLS, OneRingDesk
from .rolls import RollService
from .roster import Roster, name_beside, same_character, too_many

__all__ = ["AppState"]


class AppState(param.Parameterized):
    """The whole app: the system on screen, one desk and roster per system, the log."""

    system = param.Selector(default="one-ring", objects=list(SYSTEMS))
    storage_error = param.String(default="", doc="Why stored characters could not be read (kept aside)")

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.rolls = RollService()
        self.one_ring = OneRingDesk()
        self.gurps_roster = Roster(GurpsCharacter())
        gurps_form = self.gurps_roster.form
        self.gurps = GurpsDesk(roster=self.gurps_roster, character=gurps_form)
        self.gurps_roster.param.watch(lambda e: self.gurps.refresh(), "characters")
        self.fate = FateDesk()
        self.rosters = {
            "one-ring": Roster(self.one_ring.character),
            "gurps": self.gurps_roster,
            "fate": Roster(self.fate.character),
        }
        self.desks = {"one-ring": self.one_ring, "gurps": self.gurps, "fate": self.fate}
        #: Fate & Doom monster sheets, stored and exported with the characters.
        self.monsters = Roster(MonsterSheet())

    def own_parameters(self) -> int:
        """Give this state and every parameterized object it holds (in attributes, lists, tuples and
        dicts, however deep) their own copy of each of their parameters now; how many objects.

        param copies a parameter for an object the first time it is looked up on it (a change, a
        watcher): done here for the static site's snapshot, a start that reads the address and
        the stored characters no longer makes some 160 copies on the way, with a tablet's player
        waiting."""
        seen: set[int] = set()
        found: list[param.Parameterized] = []
        stack: list[Any] = [self]
        while stack:
            item = stack.pop()
            if id(item) in seen:
                continue
            seen.add(id(item))
            if isinstance(item, param.Parameterized):
                found.append(item)
                stack.extend(vars(item).values())
                stack.extend(item.param.values().values())
            elif isinstance(item, (list, tuple)):
                stack.extend(item)
            elif isinstance(item, dict):
                stack.extend(item.values())
        for item in found:
            for name in item.param:
                item.param[name]  # noqa: B018 (the lookup makes the copy)
        return len(found)

    @property
    def desk(self) -> Form:
        return self.desks[self.system]

    # -- rolling -------------------------------------------------------------------------------
    def roll(self, system: str | None = None, seed: int | None = None) -> LogEntry:
        """Roll the current check of ``system`` (default: the one on screen)."""
        desk = self.desks[system or self.system]
        check = desk.build_check()
        if desk is self.one_ring:
            ability = desk.ability
        elif desk is self.gurps:
            ability = desk.ability_name()
        else:
            ability = "skill"
        if desk is self.gurps:
            gurps.odds(check)  # refuses a roll below 3 that is not a defence
        entry = self.rolls.roll(
            check,
            character=desk.character.name_text,
            ability=ability,
            seed=seed,
            secret=bool(getattr(desk, "secret", False)),
        )
        desk.after_roll(entry)
        return entry

    def reveal(self, entry: LogEntry) -> None:
        """Reveal a secret roll: on screen, in the log and in its link."""
        if not entry.hidden:
            return
        self.rolls.log.reveal(entry.number)
        for desk in self.desks.values():
            if getattr(desk, "last", None) is entry:
                desk.param.trigger("last")

    def roll_contest(self, seed: int | None = None) -> LogEntry:
        desk = self.gurps
        contest, _ = desk.contest_checks()
        skill = desk.character.skills[desk.skill_index].get("name", "") if desk.character.skills else ""
        entry = self.rolls.contest(
            contest, character=desk.character.name_text, ability=skill, opponent=desk.opponent, seed=seed
        )
        desk.last_contest = entry
        return entry

    # -- storage -------------------------------------------------------------------------------
    def characters_document(self) -> Document:
        """The characters as a Kostka characters document: what the browser stores and Export writes.

        Each character as :func:`engine.documents.validate_character` checked it, a field still being
        typed on a form at its last valid value (:mod:`.drafts`; the text itself is in :meth:`drafts_json`)."""
        systems = {name: roster.to_document() for name, roster in self.rosters.items()}
        return Document("characters", systems, None, monsters=self.monsters.to_document())

    def characters_json(self) -> str:
        """:meth:`characters_document` as compact JSON (``kostka.characters`` in the browser)."""
        return self.characters_document().to_json()

    def drafts_json(self, characters_text: str | None = None) -> str:
        """The texts still being typed that the document cannot hold, for the stored ``characters_text``
        (default: :meth:`characters_json`); ``""`` when there are none (``kostka.drafts``)."""
        text = self.characters_json() if characters_text is None else characters_text
        return drafts_json(self.rosters, self.monsters, text)

    def storage_texts(self) -> tuple[str, str]:
        """What the browser keeps of the characters: the document and its drafts."""
        text = self.characters_json()
        return text, self.drafts_json(text)

    def merge_stored(self, base_text: str, theirs_text: str) -> int:
        """Merge the characters another tab stored (``theirs_text``) into these, from ``base_text``,
        what this tab last knew the browser held (:mod:`.merge`). Characters either tab added are
        kept, a change made in one tab only is taken, and where both changed the same field this
        tab's value stays. Returns how many characters both changed so, or could not be kept
        (a roster keeps :data:`~.forms.MAX_CHARACTERS`): the caller keeps theirs aside. Raises
        InputError (nothing changed) when ``theirs_text`` is not a characters document.

        The character on a form is put on it again only when the merge changed it, so a tab
        where someone is typing keeps what is being typed."""
        theirs = read_document(theirs_text, kind="characters", lenient=True)
        try:
            base = read_document(base_text, kind="characters", lenient=True) if base_text else None
        except InputError:
            base = None
        conflicts = 0
        parts = [(roster, name) for name, roster in self.rosters.items()]
        for roster, name in [*parts, (self.monsters, "")]:
            if name:
                base_part = (base.systems or {}).get(name) if base else None
                their_part = (theirs.systems or {}).get(name)
            else:
                base_part = base.monsters if base else None
                their_part = theirs.monsters
            conflicts += self._merge_roster(roster, _stored_characters(base_part), _stored_characters(their_part))
        return conflicts

    @staticmethod
    def _merge_roster(roster: Roster, base: list[dict[str, Any]], theirs: list[dict[str, Any]]) -> int:
        sheets = roster.sheets()
        ours = [c.valid for c in sheets]
        merged = merge_rows(base, ours, theirs)
        form_class = type(roster.form)
        chars: list[Any] = [
            sheets[j] if j is not None else Sheet(form_class, as_form(form_class, value), value)
            for value, j in merged.items
        ]
        over = max(0, len(chars) - MAX_CHARACTERS)  # what a roster cannot keep: the caller keeps theirs aside
        chars = chars[:MAX_CHARACTERS]
        if not chars:
            chars = [form_class().to_dict()]
        if [c.valid if isinstance(c, Sheet) else c for c in chars] == ours:
            return merged.conflicts + over
        where = [j for _, j in merged.items]
        current = where.index(roster.current) if roster.current in where else min(roster.current, len(chars) - 1)
        reload = where[current] is None if current < len(where) else True
        roster.characters = chars
        if reload or current != roster.current:
            roster.select(current)
        return merged.conflicts + over

    def load_document(self, doc: Document, *, merge: bool = False) -> int:
        """Load (or, ``merge``, add) the characters of a validated document; returns how many."""
        count = 0
        parts = [(roster, (doc.systems or {}).get(name)) for name, roster in self.rosters.items()]
        loads = []
        for roster, part in [*parts, (self.monsters, doc.monsters)]:
            if not isinstance(part, dict):
                continue
            form_class = type(roster.form)
            chars = [Sheet(form_class, as_form(form_class, c), c) for c in part.get("characters") or []]
            if merge:  # every roster checked for room before any is changed: all or nothing
                kept, added = roster.to_import(chars)
                if len(kept) + len(added) > MAX_CHARACTERS:
                    raise too_many(len(kept), len(added))
            loads.append((roster, part, chars))
        for roster, part, chars in loads:
            if merge:
                added = roster.import_characters(chars)
            else:
                roster.load({**part, "characters": chars})
                added = len(roster.characters)
            if roster is not self.monsters:  # monsters are counted apart from characters
                count += added
        return count

    def load_characters(self, text: str, *, merge: bool = False) -> int:
        """Load stored or imported characters (a Kostka characters document, or the early stored
        format); raises InputError(code="format") if unreadable."""
        try:
            data = parse_json(text)  # size and nesting checked before parsing
        except InputError:
            raise InputError("characters", "format", "not JSON") from None
        if isinstance(data, dict) and data.get("format") == FORMAT:
            try:
                doc = validate_document(data, kind="characters", lenient=True)
            except InputError:
                raise InputError("characters", "format", "not a Kostka characters file") from None
            return self.load_document(doc, merge=merge)
        return self._load_early(data, merge=merge)

    def load_drafts(self, text: str, characters_text: str) -> None:
        """Put the stored texts still being typed back on the characters loaded from ``characters_text``;
        raises InputError (nothing changed) unless they are drafts of that very text."""
        drafts = read_drafts(text, characters_text, self.rosters, self.monsters)
        for name, items in drafts.items():
            (self.monsters if name == "monsters" else self.rosters[name]).apply_drafts(items)

    def _load_early(self, data: Any, *, merge: bool = False) -> int:
        """The early stored format (``{"format": "kostka-characters", "version": 1, ...}``: the forms'
        texts as typed), read as it was stored; the app saves it as a document from then on, the
        texts a document cannot hold as drafts."""
        if (
            not isinstance(data, dict)
            or data.get("format") != "kostka-characters"
            or not isinstance(data.get("systems"), dict)
        ):
            raise InputError("characters", "format", "not a Kostka characters file")
        count = 0
        for name, roster in self.rosters.items():
            part = data["systems"].get(name)
            if not isinstance(part, dict):
                continue
            if name == "one-ring" and isinstance(
                part.get("characters"), list
            ):  # stored before the trackers: Weary by hand
                part = {
                    **part,
                    "characters": [
                        {"weary_auto": False, **c} if isinstance(c, dict) else c for c in part["characters"]
                    ],
                }
            if merge:
                count += roster.import_characters(part.get("characters") or [])
            else:
                roster.load(part)
                count += len(roster.characters)
        monsters = data.get("monsters")
        if isinstance(monsters, dict):
            if merge:
                self.monsters.import_characters(monsters.get("characters") or [])  # counted apart from characters
            else:
                self.monsters.load(monsters)
        return count

    # -- URL -----------------------------------------------------------------------------------
    def url_state(self) -> dict[str, str]:
        """The screen as query parameters (strings), within :data:`~.address.MAX_WRITTEN`
        (:meth:`address_state`)."""
        return self.address_state()[0]

    def address_state(self) -> tuple[dict[str, str], str]:
        """The screen as query parameters, and what was left out to keep the query string (with a
        ``lang=`` of up to 16 characters before it) within :data:`~.address.MAX_WRITTEN`: ``""``
        (nothing), ``"skills"`` (the GURPS sheet's skills) or ``"sheet"`` (the character; the system
        and the roll's plain inputs stay)."""
        full = self.screen_state()
        room = MAX_WRITTEN - len("?lang=&") - 16
        if len(urlencode(full)) <= room:
            return full, ""
        shorter = {k: v for k, v in full.items() if k != "skills"}
        if "skills" in full and len(urlencode(shorter)) <= room:
            return shorter, "skills"
        fields = set(type(self.desk.character)().to_dict()) | {"fav"}
        bare = {k: v for k, v in full.items() if k not in fields and k != "r_mods"}
        return bare, "sheet"

    def screen_state(self) -> dict[str, str]:
        """Everything on screen as query parameters (strings), however long."""
        desk = self.desk
        query: dict[str, str] = {"sys": self.system}
        char = desk.character.to_dict()
        for key, value in char.items():
            if key == "skills":
                query["skills"] = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
            elif isinstance(value, bool):
                if value:
                    query[key] = "1"
            else:
                query[key] = str(value)
        if self.system == "one-ring":
            favs = [k for k in query if k.startswith("fav_")]
            if favs:
                query["fav"] = ",".join(k[4:] for k in favs)
            for k in favs:
                del query[k]
        query.update({f"r_{k}": v for k, v in desk.url_state().items() if v != ""})
        return query

    def apply_url(self, query: dict[str, Any], *, keep_stored: bool = False) -> list[tuple[str, dict[str, Any]]]:
        """Restore the screen from an address read by :func:`webapp.state.address.read_address` (text
        values; bad values stay as text to correct). Returns notes for the page (msgid, params).

        With ``keep_stored`` (stored characters are already loaded), the address's character never
        replaces a stored one, and an untouched blank sheet in the address changes nothing: it
        selects the stored character it is the same as, fills in the
        roster's only character while that is still untouched, or else is added as a new character
        (a name already in use gets a number: "Tilda (2)") and a note says so.
        """
        notes: list[tuple[str, dict[str, Any]]] = []
        system = query.get("sys")
        if system in SYSTEMS:
            self.system = system
        desk = self.desk
        form_class = type(desk.character)
        # Only the form's own fields make a character: a parameter a messenger or a mailing adds
        # (``fbclid``, ``utm_source``…) is no character and is left alone.
        fresh = form_class().to_dict()
        known = set(fresh)
        data: dict[str, Any] = {}
        for key, value in query.items():
            if key == "fav" and self.system == "one-ring":
                for skill in str(value).split(","):
                    if f"fav_{skill}" in known:
                        data[f"fav_{skill}"] = True
            elif key not in known:
                continue
            elif key == "skills":
                data["skills"] = value if isinstance(value, list) else []
            else:
                data[key] = value
        if data:
            if self.system == "one-ring":
                for skill in OR_SKILLS:
                    data.setdefault(f"fav_{skill}", False)
                for flag in ("weary", "miserable", "inspired"):
                    data.setdefault(flag, False)
                data.setdefault("weary_auto", False)
            roster = self.rosters[self.system]
            incoming = as_form(form_class, data)
            same = (
                [i for i, c in enumerate(roster.characters) if same_character(as_form(form_class, c), incoming)]
                if keep_stored
                else []
            )
            if same:
                roster.select(same[0])
            elif keep_stored and incoming == fresh:
                pass  # an untouched blank sheet (the address of a first visit): nothing to keep, the stored hero stays
            elif not keep_stored or (
                len(roster.characters) == 1 and as_form(form_class, roster.characters[0]) == fresh
            ):
                desk.character.load(data)
            elif len(roster.characters) >= MAX_CHARACTERS:
                notes.append(
                    (
                        N_("The character from the address was not added: {n} characters is the most a system keeps."),
                        {"n": MAX_CHARACTERS},
                    )
                )
            else:
                name = name_beside(incoming.get("name", ""), roster.names())
                roster.add()
                desk.character.load({**data, "name": name})
                if name:
                    notes.append(
                        (N_("The character from the address was added as a new character: {name}"), {"name": name})
                    )
                else:
                    notes.append(
                        (
                            N_("The character from the address was added as a new character: Character {n}"),
                            {"n": len(roster.characters)},
                        )
                    )
        roll_inputs = {k[2:]: v for k, v in query.items() if k.startswith("r_")}
        desk.apply_url_state(roll_inputs)
        return notes


def _stored_characters(part: Any) -> list[dict[str, Any]]:
    """The characters of a document's roster (none when the document has no such roster)."""
    chars = part.get("characters") if isinstance(part, dict) else None
    return [c for c in chars if isinstance(c, dict)] if isinstance(chars, list) else []
