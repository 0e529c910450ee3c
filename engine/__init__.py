"""Kostka's rules engine: exact odds and seeded rolls for three tabletop systems.

Pure Python, no dependencies; runs the same under CPython and Pyodide.
"""

from .dist import Dist
from .errors import EngineError, InputError, RuleError
from .rng import GENERATOR, Dice, random_seed, session_seed

__all__ = [
    "GENERATOR",
    "Dice",
    "Dist",
    "EngineError",
    "InputError",
    "RuleError",
    "random_seed",
    "session_seed",
]
