"""Part of Kostka's pandas stand-in (see ``pandas/__init__.py``)."""

from pandas import _NotPandas


class GroupBy(_NotPandas):
    pass
