"""Bokeh's only questions to narwhals (``ColumnDataSource``, ``EagerDataFrame``): always "no"."""


def is_into_dataframe(obj) -> bool:
    return False


def is_into_series(obj) -> bool:
    return False
