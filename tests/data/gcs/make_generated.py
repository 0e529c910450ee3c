"""Write ``generated-120-rows.gcs``: the Goblin Shaman sheet with 120 skills, techniques and spells.

A real GURPS character easily has 50–90 skills and spells; this sheet has 80
skills and techniques (containers nested two deep, specialisations) and 40
spells in colleges, each with its own ``calc.level``. Run from the repository:
``python tests/data/gcs/make_generated.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).parent
SKILLS = [
    "Acrobatics", "Area Knowledge", "Armoury", "Axe/Mace", "Broadsword", "Carousing", "Climbing", "Connoisseur",
    "Diplomacy", "Disguise", "Escape", "Fast-Draw", "First Aid", "Forced Entry", "Gambling", "Hiking",
    "Holdout", "Intimidation", "Jumping", "Knife", "Lockpicking", "Merchant", "Navigation", "Observation",
    "Riding", "Savoir-Faire", "Search", "Shadowing", "Stealth", "Streetwise",
]  # fmt: skip
SPECIALISED = [("Armoury", "Melee Weapons"), ("Connoisseur", "Wine"), ("Fast-Draw", "Arrow"), ("Riding", "Horse")]
TECHNIQUES = ["Disarming", "Feint", "Kicking", "Off-Hand Weapon Training", "Retain Weapon", "Targeted Attack"]
SPELLS = [
    "Ignite Fire", "Create Fire", "Shape Fire", "Fireball", "Flame Jet", "Heat", "Cold", "Resist Fire",
    "Lend Energy", "Recover Energy", "Minor Healing", "Major Healing", "Great Healing", "Relieve Sickness",
    "Cure Disease", "Neutralize Poison", "Sense Foes", "Sense Emotion", "Truthsayer", "Mind-Reading",
]  # fmt: skip


def _leaf(kind: str, i: int, name: str, level: int, specialization: str = "") -> dict:
    row = {"id": f"{kind}{i:03d}", "name": name, "difficulty": "dx/a", "points": 1 + i % 4, "calc": {"level": level}}
    if specialization:
        row["specialization"] = specialization
    return row


def make() -> dict:
    doc = json.loads((HERE / "goblin-shaman.gcs").read_text(encoding="utf-8"))
    doc["profile"]["name"] = "Goblin Loremaster"
    rows = [_leaf("s", i, f"{SKILLS[i % 30]}" + (f" {i // 30 + 1}" if i >= 30 else ""), 8 + i % 9) for i in range(62)]
    rows += [_leaf("p", i, name, 10 + i, spec) for i, (name, spec) in enumerate(SPECIALISED)]
    rows += [
        _leaf("t", i, f"{TECHNIQUES[i % 6]}" + (f" ({i // 6 + 1})" if i >= 6 else ""), 9 + i % 5) for i in range(14)
    ]
    for row in rows[66:]:
        row["type"] = "technique"
    doc["skills"] = [
        {
            "id": "c1",
            "name": "Combat",
            "children": rows[:20] + [{"id": "c2", "name": "Melee", "children": rows[20:40]}],
        },
        *rows[40:66],
        {"id": "c3", "name": "Techniques", "children": rows[66:]},
    ]
    spells = [_leaf("m", i, SPELLS[i % 20] + (" (Ritual)" if i >= 20 else ""), 7 + i % 11) for i in range(40)]
    doc["spells"] = [
        {"id": "c4", "name": "Fire", "children": spells[:20]},
        {"id": "c5", "name": "Healing", "children": spells[20:]},
    ]
    return doc


if __name__ == "__main__":
    text = json.dumps(make(), ensure_ascii=False, indent=1)
    (HERE / "generated-120-rows.gcs").write_text(text + "\n", encoding="utf-8")
