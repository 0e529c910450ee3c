"""``narwhals.stable.v1`` as Bokeh asks it (see narwhals/__init__.py): nothing is a dataframe."""

from narwhals.stable.v1 import dependencies  # noqa: F401


def __getattr__(name):
    raise AttributeError(
        f"narwhals.stable.v1.{name} is not available in Kostka's static site (a stand-in for narwhals is installed)"
    )
