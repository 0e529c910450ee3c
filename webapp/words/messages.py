"""What was wrong with outside data, said in words: an imported file, the address, browser storage.

:func:`document_error_text` turns an :class:`engine.InputError` from :mod:`engine.documents`
(``field`` a path such as ``systems.one-ring.characters[0].strength``) into a sentence such as
"Character 1 (Tilda, The One Ring): Strength must be from 1 to 19." — the character's number and
name, the field's label and what is allowed, in the user's language. :func:`address_problem_text`
does the same for a value of the address left out (:mod:`webapp.state.address`). No Panel import.
"""

from __future__ import annotations

import re
from typing import Any

from engine import one_ring
from engine.links import without_refused

from ..i18n import N_, Translator, error_text
from ..state.forms import SYSTEM_TITLES
from ..state.one_ring import OR_LABELS, OR_PROFICIENCIES, OR_SKILLS

__all__ = [
    "FIELD_LABELS",
    "address_problem_text",
    "document_error_text",
    "field_label",
    "room_text",
    "storage_messages",
]

#: Field (or address key) -> its label on the form.
FIELD_LABELS = {
    "name": N_("Name"),
    # the One Ring sheet's attributes, skills, proficiencies, Valour and Wisdom, as labelled on its form
    **{k: OR_LABELS[k] for k in (*one_ring.ATTRIBUTES, *OR_SKILLS, *OR_PROFICIENCIES, "valour", "wisdom")},
    "hope": N_("Hope"),
    "hope_max": N_("Hope (max)"),
    "weary": N_("Weary"),
    "miserable": N_("Miserable"),
    "st": N_("ST"),
    "dx": N_("DX"),
    "iq": N_("IQ"),
    "ht": N_("HT"),
    "skills": N_("Skills"),
    "level": N_("Level"),
    "modifiers": N_("Modifiers for this roll"),
    "r_mods": N_("Modifiers for this roll"),
    "value": N_("Value"),
    "skill": N_("Skill"),
    "favour": N_("Favour of the gods"),
    "favour_max": N_("Favour (max)"),
    "life": N_("Life"),
    "life_max": N_("Life (max)"),
    "stoutness": N_("Stoutness"),
    "stoutness_max": N_("Stoutness (max)"),
}

_CURRENT = re.compile(r"^(?:systems\.(one-ring|gurps|fate)|(monsters))\.current$")
_CHARACTER = re.compile(
    r"^(?:systems\.(one-ring|gurps|fate)|(monsters))\.characters\[(\d+)\](?:\.(\w+)(?:\[(\d+)\](?:\.(\w+))?)?)?$"
)
_ROLL = re.compile(r"^rolls\[(\d+)\]")


def field_label(tr: Translator, key: str) -> str:
    """The translated label of a field, or the key itself in quotes when it is not one of ours."""
    if key.startswith("fav_") and key[4:] in FIELD_LABELS:
        return tr(N_("{skill} favoured"), skill=tr(FIELD_LABELS[key[4:]]))
    if key in FIELD_LABELS:
        return tr(FIELD_LABELS[key])
    return f"“{key[:40]}”"


def _megabytes(n: Any) -> str:
    return f"{n / 1_000_000:.1f} MB" if isinstance(n, int) else "?"


def _what(tr: Translator, label: str, error: Any) -> str:
    """ "Strength must be from 1 to 19." and the like, for one field."""
    code, params = error.code, error.params
    low, high = params.get("low"), params.get("high")
    if params.get("kind") == "character":
        return tr(N_("{field} holds an invisible control character."), field=label)
    if code == "type" and params.get("got") == "a number" and "digits" in params:
        return tr(N_("{field} has a number far too long."), field=label)
    if code in ("type", "range") and low is not None and high is not None:
        return (
            tr(N_("{field} must be a whole number from {low} to {high}."), field=label, low=low, high=high)
            if code == "type"
            else tr(N_("{field} must be from {low} to {high}."), field=label, low=low, high=high)
        )
    if code == "type" and params.get("kind") == "text":
        return tr(N_("{field} must be text."), field=label)
    if code == "range" and high is not None:
        return tr(N_("{field} is too long or too large (at most {high})."), field=label, high=high)
    if code == "rule" and high is not None:
        return tr(N_("{field} is above its maximum ({high})."), field=label, high=high)
    if code == "choice" and "value" in params:
        return tr(N_("“{value}” is not a field or value this app knows."), value=str(params["value"])[:40])
    return f"{label}: {error_text(tr, error)}"


def room_text(tr: Translator, params: dict[str, Any]) -> str:
    """Why an import was refused whole: its characters do not fit a roster (``kind="room"``)."""
    return tr.ngettext(
        "Nothing was imported: the file has {n} new character, and a system keeps at most {high} "
        "(room for {room} more).",
        "Nothing was imported: the file has {n} new characters, and a system keeps at most {high} "
        "(room for {room} more).",
        params.get("added", 0),
        high=params.get("high"),
        room=params.get("room"),
    )


def document_error_text(tr: Translator, error: Any, data: Any = None) -> str:
    """An import's refusal in words. ``data`` (the file as parsed, if it could be) gives names."""
    field, code, params = getattr(error, "field", ""), getattr(error, "code", ""), getattr(error, "params", {}) or {}
    kind = params.get("kind")
    if field == "document" or field == "characters":
        if kind == "size":
            size = params.get("value")
            if isinstance(size, int):
                return tr(
                    N_("The file is too large: {size}; at most {limit}."),
                    size=_megabytes(size),
                    limit=_megabytes(params.get("high")),
                )
            return tr(N_("The file is too large: at most {limit}."), limit=_megabytes(params.get("high")))
        if kind == "room":
            return room_text(tr, params)
        if kind == "empty":
            return tr(N_("The file is empty."))
        if kind == "encoding":
            return tr(N_("The file is not text (UTF-8)."))
        if kind == "syntax":
            return tr(
                N_("The file is not valid JSON (line {line}, column {column})."),
                line=params.get("line"),
                column=params.get("column"),
            )
        if kind == "depth":
            return tr(
                N_("The file is nested too deeply: {depth} levels; at most {high}."),
                depth=params.get("value"),
                high=params.get("high"),
            )
        if code == "type":
            return tr(N_("This is not a Kostka file."))
        if params.get("value") in ("NaN", "Infinity", "-Infinity"):  # what JSON itself does not allow
            return tr(
                N_("The file has {value} where a number should be; a file holds only numbers."), value=params["value"]
            )
        return tr(N_("The file could not be read."))
    if field == "format":
        return tr(N_("This is not a Kostka file."))
    if field == "version":
        if (
            code == "range"
            and params.get("high") is not None
            and isinstance(params.get("value"), int)
            and params["value"] > params["high"]
        ):
            return tr(N_("This file was made by a newer version of Kostka; update the app to read it."))
        return tr(N_("This is not a Kostka file."))
    if field in ("kind", "systems"):
        return tr(N_("This file holds no characters."))
    match = _CURRENT.match(field)
    if match:  # which character was on screen: a number the roster does not have
        system, monsters = match.groups()
        where = tr(N_("Monsters")) if monsters else tr(SYSTEM_TITLES[system])
        return f"{where}: {tr(N_('the character marked as on screen is not one of its characters.'))}"
    match = _CHARACTER.match(field)
    if match:
        system, monsters, index, key, row, row_key = match.groups()
        where = _who(tr, data, system, monsters, int(index))
        if key is None:
            return f"{where}: {tr(N_('This character could not be read.'))}"
        if row is not None:
            label = tr(N_("skill {n}"), n=int(row) + 1) if key == "skills" else tr(N_("modifier {n}"), n=int(row) + 1)
            label = f"{field_label(tr, key)} ({label})" if row_key is None else f"{field_label(tr, row_key)} ({label})"
        else:
            label = field_label(tr, key)
        return f"{where}: {_what(tr, label, error)}"
    match = _ROLL.match(field)
    if match:
        where = tr(N_("Roll {n} in the log"), n=int(match.group(1)) + 1)
        if field.endswith(".result") and code == "rule":
            return f"{where}: {tr(N_('its result does not follow from its dice seed — the log was edited.'))}"
        return f"{where}: {tr(N_('this roll could not be read.'))}"
    return error_text(tr, error)


def _who(tr: Translator, data: Any, system: str | None, monsters: str | None, index: int) -> str:
    """ "Character 1 (Tilda, The One Ring)" / "Monster 2 (Wolf)", with the name when it is text."""
    name = ""
    try:
        part = data["monsters"] if monsters else data["systems"][system]
        raw = part["characters"][index].get("name")
        name = without_refused(raw).strip()[:40] if isinstance(raw, str) else ""  # never a text direction override
    except (KeyError, IndexError, TypeError, AttributeError):
        name = ""
    if monsters:
        return tr(N_("Monster {n} ({name})"), n=index + 1, name=name) if name else tr(N_("Monster {n}"), n=index + 1)
    title = tr(SYSTEM_TITLES[system or "one-ring"])
    if name:
        return tr(N_("Character {n} ({name}, {system})"), n=index + 1, name=name, system=title)
    return tr(N_("Character {n} ({system})"), n=index + 1, system=title)


def address_problem_text(tr: Translator, error: Any) -> str:
    """A value of the address that was left out (:mod:`webapp.state.address`), in words."""
    params = getattr(error, "params", {}) or {}
    kind, key = params.get("kind"), params.get("key")
    if key is None:
        if kind == "fields":
            return tr(
                N_("The address has {n} parts; only the first {high} were read."),
                n=params.get("value"),
                high=params.get("high"),
            )
        return tr(
            N_("The address is too long to read: {n} characters; at most {high}. It was left out."),
            n=params.get("value"),
            high=params.get("high"),
        )
    label = field_label(tr, key[2:] if key.startswith("r_") and key != "r_mods" else key)
    if kind == "length":
        why = tr(N_("it is too long ({n} characters; at most {high})"), n=params.get("value"), high=params.get("high"))
    elif kind == "depth":
        why = tr(
            N_("it is nested too deeply ({n} levels; at most {high})"), n=params.get("value"), high=params.get("high")
        )
    elif kind == "rows":
        why = tr(N_("it has {n} rows; at most {high}"), n=params.get("value"), high=params.get("high"))
    elif kind == "encoding":
        why = tr(N_("it is not readable text"))
    elif kind == "character":
        why = tr(N_("it holds an invisible control character"))
    else:
        why = tr(N_("it is not in the form this app writes"))
    return tr(N_("Part of the address was left out: {field} — {why}."), field=label, why=why)


def storage_messages(read: Any, characters_key: str, session_key: str, log_key: str) -> list[str]:
    """The messages (msgids) that say what :func:`webapp.state.stored.read_stored` kept aside: one per item."""
    messages = []
    if characters_key in read.kept:
        messages.append(N_("Stored characters could not be read; a copy was kept aside and the app started clean."))
    if characters_key in read.partial:
        messages.append(
            N_(
                "Some stored character values could not be read; a copy of all stored characters was kept aside and the rest loaded."
            )
        )
    if session_key in read.kept:
        messages.append(N_("The stored session code could not be read; a copy was kept aside."))
    if log_key in read.kept:
        messages.append(N_("The stored roll log could not be read; a copy was kept aside and the log started empty."))
    if log_key in read.partial:
        messages.append(
            N_("Some stored rolls could not be read; a copy of the stored log was kept aside and the rest loaded.")
        )
    return messages
