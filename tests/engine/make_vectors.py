"""Write ``tests/engine/vectors.json``: fixed seeded-roll vectors for every system.

Run ``python tests/engine/make_vectors.py`` only when the generator or a roll
record changes on purpose (that breaks every shared link: bump the generator's
name in ``engine/rng.py``). Each vector is ``{"system", "check", "seed",
"record"}``; ``engine.make_check(system, check)`` rebuilds the check and
``engine.roll_check(check, seed).to_dict()`` must equal ``record``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import FateCheck, GurpsCheck, OneRingCheck, QuickContest, RegularContest, roll_check

PATH = Path(__file__).with_name("vectors.json")

CHECKS = [
    OneRingCheck(rating=2, tn=13),
    OneRingCheck(rating=3, tn=16, feat_mode="favoured", bonus_dice=2),
    OneRingCheck(rating=4, tn=14, feat_mode="ill_favoured", weary=True, miserable=True),
    OneRingCheck(rating=0, tn=10),
    GurpsCheck(9, (-5, 10)),
    GurpsCheck(12),
    GurpsCheck(1, (), defence=True),
    QuickContest(14, 12),
    RegularContest(18, 16),
    RegularContest(11, 11, high_skill_rule=False),
    FateCheck(7),
    FateCheck(8, difficulty=2, favour_spent=1, favour_held=3),
    FateCheck(7, difficulty=2, ties_succeed=True),
]
SEEDS = (0, 1, 42, 2**32 + 7, 2**64 - 1)


def vectors() -> list[dict]:
    return [
        {"system": check.system, "check": check.to_dict(), "seed": seed, "record": roll_check(check, seed).to_dict()}
        for check in CHECKS
        for seed in SEEDS
    ]


if __name__ == "__main__":
    PATH.write_text(json.dumps(vectors(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {PATH} ({len(vectors())} vectors)")
