"""The snapshot's heap, frozen out of the collector's reach, then collected once."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# In a fresh interpreter (freezing is process-wide): a cycle made before freeze() and dropped after
# it is not collected until collect_frozen(), which runs once; a cycle made since is collected.
PROGRAM = r"""
import gc, weakref
from webapp import heap

class Node: pass

def cycle():
    node = Node(); node.me = node
    return weakref.ref(node)

assert not heap.collect_frozen()  # nothing frozen yet
kept = Node(); kept.me = kept; kept_ref = weakref.ref(kept)
heap.freeze()
del kept
gc.collect()
assert kept_ref() is not None  # dropped after freeze(): frozen, a full collection leaves it
after = cycle()
gc.collect()
assert after() is None  # made after freeze(): collected as ever
assert heap.collect_frozen() and kept_ref() is None  # collected with everything once
assert gc.get_freeze_count() > 0  # the rest frozen again
assert not heap.collect_frozen()  # once
print("ok")
"""


def test_the_frozen_heap_is_collected_once_with_everything():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"
