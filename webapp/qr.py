"""QR codes of share links as inline SVG.

Uses ``segno`` (pure Python, a ``py3-none-any`` wheel, so it runs under
Pyodide). Error correction M; a link of up to
``engine.links.MAX_PAYLOAD_LENGTH`` characters behind a site address of up to
100 characters needs at most version 15 (77×77 modules), which a phone reads
across a table. Only the link's modules are drawn: no text from the link goes
into the SVG markup.
"""

from __future__ import annotations

from typing import Any

from engine import InputError

__all__ = ["MAX_QR_TEXT", "QR_ERROR", "make_qr", "qr_svg"]

QR_ERROR = "m"
#: The longest text turned into a QR code (a link with a long site address).
MAX_QR_TEXT = 600


def make_qr(text: str) -> Any:
    """The ``segno.QRCode`` of ``text`` (byte mode, error correction M, never a Micro QR)."""
    import segno  # imported on use: the engine and the rest of the app load without it

    if not isinstance(text, str) or not text:
        raise InputError("link", "type", "expected the link as a non-empty text")
    if len(text) > MAX_QR_TEXT:
        raise InputError(
            "link",
            "range",
            f"is too long for a QR code: {len(text)} characters, at most {MAX_QR_TEXT}",
            high=MAX_QR_TEXT,
            value=len(text),
        )
    return segno.make(text, error=QR_ERROR, micro=False, boost_error=False)


def qr_svg(text: str, *, scale: int = 4, dark: str = "#000", light: str = "#fff", border: int = 4) -> str:
    """``text`` as an inline ``<svg>`` element (quiet zone of ``border`` modules, light background),
    ``scale`` pixels per module at its own size and scaled whole by CSS (its ``viewBox``)."""
    for name, colour in (("dark", dark), ("light", light)):
        if not (
            isinstance(colour, str)
            and colour.startswith("#")
            and len(colour) in (4, 7)
            and all(c in "0123456789abcdefABCDEF" for c in colour[1:])
        ):
            raise InputError(name, "type", "expected a colour like #000 or #1a2b3c", value=str(colour)[:20])
    if not isinstance(scale, int) or isinstance(scale, bool) or not 1 <= scale <= 20:
        raise InputError("scale", "range", "the scale is from 1 to 20", low=1, high=20)
    if not isinstance(border, int) or isinstance(border, bool) or not 0 <= border <= 10:
        raise InputError("border", "range", "the border is from 0 to 10", low=0, high=10)
    qr = make_qr(text)
    width, height = qr.symbol_size(scale=scale, border=border)
    svg = qr.svg_inline(scale=scale, dark=dark, light=light, border=border, omitsize=False)
    # a viewBox as well as the size: shown in a narrower box (a phone, a panel), the code scales
    # down whole instead of being cut off on the right, and still scans
    return svg.replace("<svg ", f'<svg viewBox="0 0 {width} {height}" ', 1)
