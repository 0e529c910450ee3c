# Making the snapshot, last: overwrite with zeros the memory the interpreter has freed. Freed memory
# keeps what it last held, and the snapshot would carry it, compressed, to every visitor. snapshot.js
# runs this with the WebAssembly memory unable to grow: blocks of zeros, the largest first, are
# held until the allocator has none of that size left (its freed chunks and the top of its heap),
# then all are let go; the allocator's own headers are all that is written over them.
def _zero_freed() -> None:
    import array
    import gc

    gc.collect()
    held = []
    size = 1 << 24
    while size >= 4096:
        try:
            held.append(array.array("B", [0]) * size)
        except MemoryError:
            size //= 2
    del held


_zero_freed()
del _zero_freed
