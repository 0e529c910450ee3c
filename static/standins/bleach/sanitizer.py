"""``bleach.sanitizer.Cleaner`` as Panel uses it (see bleach/__init__.py): all markup escaped."""

from html import escape


class Cleaner:
    def __init__(self, **options):
        self.options = options  # bleach's allowed tags and attributes: none are allowed here

    def clean(self, text: str) -> str:
        if not isinstance(text, str):
            raise TypeError(f"argument cannot be of {type(text).__name__!r} type, must be of text type")
        return escape(text, quote=False)
