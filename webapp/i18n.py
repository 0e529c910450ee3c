"""Translations: gettext catalogues for English, Russian and Czech.

Every text the user sees is an English msgid marked with :func:`N_` (so
``pybabel extract`` finds it) and translated at display time by a
:class:`Translator`, one per browser session, because the language is a
per-user choice that can change at any moment. The compiled ``.mo`` files are
read with the standard library's :mod:`gettext`, which also works under Pyodide.
"""

from __future__ import annotations

import gettext
import os
from functools import cache
from typing import Any

import param

__all__ = ["DOMAIN", "LANGUAGES", "LOCALE_DIR", "N_", "Translator", "catalogue", "error_text", "percent"]

DOMAIN = "kostka"
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")
#: Language code -> the language's own name (shown in the switcher untranslated).
LANGUAGES = {"en": "English", "ru": "Русский", "cs": "Čeština"}


def N_(message: str) -> str:
    """Mark ``message`` for extraction; it is translated later, where it is shown."""
    return message


@cache
def catalogue(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (English falls back to the msgids)."""
    if lang not in LANGUAGES:
        lang = "en"
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)


def normalise_language(value: Any) -> str:
    """A supported language code from ``value`` (``"ru-RU"`` -> ``"ru"``), else English."""
    if isinstance(value, str):
        code = value.strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return "en"


class Translator(param.Parameterized):
    """The current language of one session and the way to translate into it."""

    lang = param.Selector(default="en", objects=list(LANGUAGES), doc="Language code")

    def gettext(self, message: str, **params: Any) -> str:
        text = catalogue(self.lang).gettext(message)
        return text.format(**params) if params else text

    def ngettext(self, singular: str, plural: str, n: Any, **params: Any) -> str:
        """The form of a message with a count ``n`` that the language uses for it (1 / 2–4 / 5… in
        Russian and Czech); ``{n}`` in the message is the count. Extracted by ``pybabel``
        (``webapp/extract.py``) with both forms."""
        try:
            count = int(n)
        except (TypeError, ValueError):
            count = 0  # a count still being typed: the general form
        text = catalogue(self.lang).ngettext(singular, plural, count)
        return text.format(**{"n": n, **params})

    __call__ = gettext


def error_text(tr: Translator, error: Any) -> str:
    """A sentence in ``tr``'s language for an :class:`engine.InputError`.

    Built from the error's ``field``, ``code`` and ``params``, never from its
    English ``message``.
    """
    code = getattr(error, "code", "type")
    params = dict(getattr(error, "params", {}) or {})
    field = getattr(error, "field", "")
    low, high = params.get("low"), params.get("high")
    if code == "empty":
        return tr(N_("Enter a value."))
    if code == "type":
        if low is not None and high is not None:
            return tr(N_("Enter a whole number from {low} to {high}."), low=low, high=high)
        return tr(N_("Enter a whole number."))
    if code == "range":
        if low is not None and high is not None:
            return tr(N_("Must be from {low} to {high}."), low=low, high=high)
        if low is not None:
            return tr(N_("Must be at least {low}."), low=low)
        if high is not None:
            return tr(N_("Must be at most {high}."), high=high)
        return tr(N_("Out of range."))
    if code == "choice":
        return tr(N_("Choose one of the offered values."))
    if code == "rule":
        if field in ("favour", "favour_spent", "favour_spend", "favour_held", "spend"):
            held = params.get("held", params.get("high", params.get("favour_held")))
            if held is not None:
                return tr.ngettext("You hold only {n} favour point.", "You hold only {n} favour points.", held)
            return tr(N_("You cannot spend more favour than you hold."))
        if field in ("skill", "effective_skill"):
            return tr(N_("No roll is allowed below effective skill 3, except for a defence."))
        if field in ("hope", "hope_spent", "hope_spend"):
            return tr(N_("Not enough Hope."))
        if field in ("icons", "choices"):
            return tr(N_("You cannot spend more icons than you rolled."))
        return tr(N_("Not allowed by the rules."))
    if code == "format":
        return tr(N_("The file could not be read."))
    return tr(N_("Invalid value."))


def percent(p: Any) -> str:
    """A probability as a percentage with one decimal (0.709 -> "70.9%")."""
    return f"{float(p):.1%}"
