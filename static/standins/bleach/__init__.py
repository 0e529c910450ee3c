"""A stand-in for bleach, used only in Kostka's static site. It is NOT bleach.

Panel passes every text parameter of a ``ReactiveHTML`` component (Kostka's are the
``FlexBox`` layouts, whose texts are CSS keywords such as "wrap") through
``bleach.sanitizer.Cleaner(strip=True).clean`` before the page sees it. This stand-in's
``Cleaner`` is stricter than bleach's: where bleach keeps a few harmless tags and strips the
others, it escapes all markup, so no text ever reaches the page as HTML. That spares the site
bleach, html5lib and webencodings (forty modules imported on the first draw).
"""

from bleach import sanitizer  # noqa: F401

__version__ = "0+kostka.standin"
__kostka_standin__ = True


def __getattr__(name):
    raise AttributeError(f"bleach.{name} is not available in Kostka's static site (a stand-in for bleach is installed)")
