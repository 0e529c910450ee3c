"""Write ``tests/engine/vectors.json`` and ``session_vectors.json``: fixed vectors for every system.

Run ``python tests/engine/make_vectors.py`` only when the generator or a roll
record changes on purpose (that breaks every shared link: bump the generator's
name in ``engine/rng.py``). Each vector is ``{"system", "check", "seed",
"record"}``; ``engine.make_check(system, check)`` rebuilds the check and
``engine.roll_check(check, seed).to_dict()`` must equal ``record``.

``session_vectors.json`` pins session rolls: per check, the seed and link of the derivation of
links of versions 2 and 3 (``kostka-roll-v1``: the check as written, the name as written) and of
version 4 (``kostka-roll-v2``: the check's canonical form, the name's skeleton). Old vectors must
never change; the derivation of a new version adds vectors of its own.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import FateCheck, GurpsCheck, OneRingCheck, QuickContest, RegularContest, links, roll_check
from engine.roller import parse_dice

PATH = Path(__file__).with_name("vectors.json")
SESSION_PATH = Path(__file__).with_name("session_vectors.json")

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


#: Session rolls: (check, name), each at its own number of session "Friday" (equivalent pairs included).
SESSION_ROLLS = [
    (OneRingCheck(rating=3, tn=14, bonus_dice=1), "Frodo"),
    (OneRingCheck(rating=0, tn=12, weary=True), "Сэм"),
    (GurpsCheck(12, (-6, 6)), "Gunnar"),
    (GurpsCheck(12, ()), "Gunn\u0430r"),
    (QuickContest(14, 12), "Šárka"),
    (RegularContest(18, 16), "Gunnar"),
    (FateCheck(7, difficulty=2, favour_spent=2, favour_held=3), "Hero"),
    (parse_dice("1d6+3+1d6"), "Ada"),
    (parse_dice("2d6+3"), "Ada"),
]


def session_vectors() -> list[dict]:
    out = []
    for version in (2, links.SESSION_LINK_VERSION):
        for number, (check, name) in enumerate(SESSION_ROLLS, start=1):
            derivation = version if version == links.SESSION_LINK_VERSION else links._written_version(check.system)
            seed = links.session_roll_seed("Friday", number, check, name, version=derivation)
            payload = links.encode_roll_link(check, seed=seed, session_code="Friday", number=number, name=name)
            link = links.decode_link(payload)
            out.append(
                {
                    "version": link.version,
                    "system": check.system,
                    "check": check.to_dict(),
                    "number": number,
                    "name": name,
                    "seed": seed,
                    "link": payload,
                    "claim": link.claim.to_dict(),
                }
            )
    return out


if __name__ == "__main__":
    PATH.write_text(json.dumps(vectors(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {PATH} ({len(vectors())} vectors)")
    SESSION_PATH.write_text(json.dumps(session_vectors(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {SESSION_PATH} ({len(session_vectors())} vectors)")
