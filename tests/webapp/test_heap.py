"""The snapshot's heap, frozen out of the collector's reach for good."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# In a fresh interpreter (freezing is process-wide): a cycle made before freeze() is left to full
# collections after it; a cycle made since is collected.
PROGRAM = r"""
import gc, weakref
from webapp import heap

class Node: pass

def cycle():
    node = Node(); node.me = node
    return weakref.ref(node)

before = cycle()
kept = Node(); kept.me = kept; kept_ref = weakref.ref(kept)
heap.freeze()
assert before() is None  # garbage before: collected first
del kept
gc.collect()
assert kept_ref() is not None  # frozen: a full collection does not walk it
after = cycle()
gc.collect()
assert after() is None  # made after freeze(): collected as ever
assert gc.get_freeze_count() > 0
print("ok")
"""


def test_the_heap_is_collected_then_frozen_for_good():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"
