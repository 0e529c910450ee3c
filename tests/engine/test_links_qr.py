"""QR codes of share links decode back to the link (read with zxing-cpp)."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest

from engine import FateCheck, GurpsCheck, InputError, OneRingCheck, links

segno = pytest.importorskip("segno")
zxingcpp = pytest.importorskip("zxingcpp")
Image = pytest.importorskip("PIL.Image")

from webapp.qr import MAX_QR_TEXT, make_qr, qr_svg  # noqa: E402

SITE = "https://dice.example.org/kostka/"  # a typical address
LONG_SITE = "https://" + "a" * 80 + ".example/k/"  # about 100 characters


def _decode(qr) -> str:
    buffer = io.BytesIO()
    qr.save(buffer, kind="png", scale=4, border=4)
    buffer.seek(0)
    results = zxingcpp.read_barcodes(Image.open(buffer).convert("L"))
    assert len(results) == 1
    return results[0].text


def _worst_links():
    name = ("Жř" * 40)[: links.MAX_NAME_LENGTH]
    label = ("Щů" * 24)[: links.MAX_LABEL_LENGTH]
    code = ("ЁČ" * 16)[: links.MAX_CODE_LENGTH]
    check = GurpsCheck(skill=-20, modifiers=(-30,) * 20, defence=True)
    secret = links.encode_secret_link(check, name=name, label=label, session_code=code, number=links.MAX_NUMBER)
    return [
        links.encode_check_link(check, name=name, label=label),
        links.encode_roll_link(check, seed=2**64 - 1, name=name, label=label),
        links.encode_roll_link(check, session_code=code, number=links.MAX_NUMBER, name=name, label=label),
        secret.link,
        secret.revealed_link,
    ]


@pytest.mark.parametrize("site", [SITE, LONG_SITE])
def test_qr_decodes_back_to_the_link(site):
    payloads = [
        links.encode_roll_link(OneRingCheck(rating=2, tn=13), seed=42, name="Фродо"),
        links.encode_check_link(FateCheck(skill=7), label="Awareness"),
        *_worst_links(),
    ]
    for payload in payloads:
        url = links.link_url(site, payload)
        qr = make_qr(url)
        assert qr.error == "M" and qr.version <= 15
        decoded = _decode(qr)
        assert decoded == url
        assert links.decode_link(decoded).payload == payload


def test_svg_is_plain_markup_without_the_link_text():
    url = links.link_url(SITE, links.encode_check_link(FateCheck(skill=7), name="<script>alert(1)</script>"))
    svg = qr_svg(url, scale=3, dark="#112233", light="#fff")
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert "script" not in svg and "alert" not in svg and "#r=" not in svg
    assert {el.tag.split("}")[-1] for el in root.iter()} <= {"svg", "g", "path", "rect"}


def test_bad_qr_inputs():
    for call in (
        lambda: make_qr(""),
        lambda: make_qr(None),
        lambda: make_qr("x" * (MAX_QR_TEXT + 1)),
        lambda: qr_svg("x", dark="red; fill:url(javascript:1)"),
        lambda: qr_svg("x", scale=0),
        lambda: qr_svg("x", border=True),
    ):
        with pytest.raises(InputError) as info:
            call()
        assert info.value.message
