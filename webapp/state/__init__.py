"""The state layer: the app as ``param`` models and plain Python (no Panel, no Bokeh)."""
