"""Part of Kostka's pandas stand-in (see ``pandas/__init__.py``)."""
