"""A stand-in for nh3, used only in Kostka's static site. It is NOT nh3.

Panel passes every text parameter of a ``ReactiveHTML`` component (Kostka's are the ``FlexBox``
layouts, whose texts are CSS keywords such as "wrap") through ``nh3.clean`` before the page sees
it (``panel.util.HTML_SANITIZER``). nh3 is a Rust extension, and no build of it for the browser's
Python can be had here. This stand-in's ``clean`` is stricter than nh3's: where nh3 keeps a few
harmless tags and strips the others, it escapes all markup, so no text ever reaches the page as
HTML.
"""

from html import escape

__version__ = "0+kostka.standin"
__kostka_standin__ = True


def clean(html: str, **options: object) -> str:
    """``html`` with every markup character escaped (nh3's allowed tags and attributes, in
    ``options``: none are allowed here)."""
    if not isinstance(html, str):
        raise TypeError(f"argument 'html': {type(html).__name__!r} object cannot be converted to 'PyString'")
    return escape(html, quote=False)


def __getattr__(name: str) -> object:
    raise AttributeError(f"nh3.{name} is not available in Kostka's static site (a stand-in for nh3 is installed)")
