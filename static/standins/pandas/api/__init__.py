"""Part of Kostka's pandas stand-in (see ``pandas/__init__.py``)."""

from pandas.api import extensions  # noqa: F401
