# A zip file without some of its entries, for the snapshot's standard library (snapshot_pack.py runs
# it inside the interpreter the snapshot is taken of; tests/test_build_checks.py runs it here).
# Each entry kept is copied as it is, through one buffer that is cleared at the end: the snapshot
# would carry whatever was read as freed memory, and compressed bytes compress badly again.
import struct

CENTRAL, END = b"PK\x01\x02", b"PK\x05\x06"


def write_zip_without(source: str, target: str, left_out: set[str]) -> int:
    """``source`` (a zip file: one disk, no ZIP64, no data descriptors, no comment) into ``target`` without the
    entries named in ``left_out``; the entries kept stay in their order. Returns how many were kept."""
    with open(source, "rb") as src:
        src.seek(-22, 2)  # the end record (the zips here have no comment after it)
        tail = src.read(22)
        if tail[:4] != END or tail[20:] != b"\0\0":
            raise ValueError(f"{source} is not a zip file without a comment")
        count, directory_size, directory_at = struct.unpack("<10xHII2x", tail)
        src.seek(directory_at)
        directory = src.read(directory_size)
        buffer = bytearray(1 << 16)
        kept = []  # (central directory record, its new local header offset)
        with open(target, "wb") as out:
            pos = 0
            for _ in range(count):
                if directory[pos : pos + 4] != CENTRAL:
                    raise ValueError(f"{source}: bad central directory")
                flags, packed, name_size, extra_size, comment_size, local = struct.unpack(
                    "<8xH10xI4xHHH8xI", directory[pos : pos + 46]
                )
                record = bytes(directory[pos : pos + 46 + name_size + extra_size + comment_size])
                pos += len(record)
                name = record[46 : 46 + name_size].decode("utf-8" if flags & 0x800 else "cp437")
                if name in left_out:
                    continue
                if flags & 0x8:
                    raise ValueError(f"{source}: {name} has a data descriptor")
                src.seek(local + 26)
                local_names = struct.unpack("<HH", src.read(4))
                kept.append((record, out.tell()))
                src.seek(local)
                todo = 30 + sum(local_names) + packed
                while todo:
                    n = src.readinto(memoryview(buffer)[: min(todo, len(buffer))])
                    if not n:
                        raise ValueError(f"{source}: {name} is cut short")
                    out.write(memoryview(buffer)[:n])
                    todo -= n
            start = out.tell()
            for record, offset in kept:
                out.write(record[:42] + struct.pack("<I", offset) + record[46:])
            end = out.tell()
            out.write(END + struct.pack("<HHHHIIH", 0, 0, len(kept), len(kept), end - start, start, 0))
        buffer[:] = bytes(len(buffer))  # what it held last is not left in the freed memory
    return len(kept)
