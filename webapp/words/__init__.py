"""The words layer: rolls, errors, fight events and refusals turned into text in a language (no Panel)."""
