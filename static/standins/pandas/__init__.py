"""A stand-in for pandas, used only in Kostka's static site. It is NOT pandas.

Bokeh imports pandas unconditionally in a few places (``figure()``, ``ColumnDataSource``,
datetime serialisation) only to ask "is this a pandas object?". Kostka never makes pandas
objects, so these classes, which cannot even be instantiated, make every such test answer
"no" — and the site does not download pandas (6.5 MB with its dependencies) nor spend
seconds importing it. Any other use fails loudly with a clear message.
"""

__version__ = "0+kostka.standin"
__kostka_standin__ = True


class _NotPandas:
    def __init__(self, *args, **kwargs):
        raise TypeError(f"pandas is not available in Kostka's static site ({type(self).__name__})")


class DataFrame(_NotPandas):
    pass


class Series(_NotPandas):
    pass


class Index(_NotPandas):
    pass


class MultiIndex(Index):
    pass


class Timestamp(_NotPandas):
    pass


class Timedelta(_NotPandas):
    pass


class Period(_NotPandas):
    pass


class _NaTType:
    def __repr__(self):
        return "NaT"


class _NAType:
    def __repr__(self):
        return "<NA>"


NaT = _NaTType()
NA = _NAType()


def _unavailable(*args, **kwargs):
    raise NotImplementedError("pandas is not available in Kostka's static site")


# panel.io.pyodide wraps these two at import time (to read URLs); calling them fails clearly.
read_csv = read_json = _unavailable


def __getattr__(name):
    raise AttributeError(f"pandas.{name} is not available in Kostka's static site (a stand-in for pandas is installed)")


from pandas import api, core  # noqa: E402,F401  (so pd.api.extensions / pd.core.groupby resolve)
