"""A stand-in for narwhals, used only in Kostka's static site. It is NOT narwhals.

Bokeh's ``ColumnDataSource`` imports narwhals whenever one is made, only to ask "is this a
dataframe?" of data that is not a dict. Kostka gives it plain dicts of lists, so these
functions answer "no" — and the site neither ships narwhals (1 MB) nor imports its seventy
modules at start-up. Anything else fails loudly with a clear message.
"""

__version__ = "0+kostka.standin"
__kostka_standin__ = True


def __getattr__(name):
    raise AttributeError(
        f"narwhals.{name} is not available in Kostka's static site (a stand-in for narwhals is installed)"
    )
