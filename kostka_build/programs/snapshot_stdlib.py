# The build's check of a restored snapshot, last: the standard library's zip it was restored with
# (the one without the modules the snapshot holds) is the one its importers know, file by file,
# and modules the snapshot does not hold import from it, with the zip's root importer and a
# package's (the encodings' codec). The number of files checked is the result.
import sys
import zipfile
import zipimport

STDLIB = next(p for p in sys.path if p.endswith(".zip"))
unheld = ["graphlib", "encodings.cp1250"]
if any(name in sys.modules for name in unheld):
    raise RuntimeError(f"the snapshot holds one of {unheld}: check others, which it does not hold")
import graphlib

order = list(graphlib.TopologicalSorter({"roll": {"dice"}, "dice": set()}).static_order())
if order != ["dice", "roll"] or "á".encode("cp1250") != b"\xe1":  # cp1250: found by encodings
    raise RuntimeError("a module the snapshot does not hold came out wrong")


def reads(importer: zipimport.zipimporter, path: str, data: bytes) -> bool:
    try:
        return importer.get_data(path) == data
    except Exception:  # a table of contents of another zip: no file header there, or a wrong size
        return False


importers = {
    id(i): i
    for i in [*sys.path_importer_cache.values(), *(getattr(m, "__loader__", None) for m in list(sys.modules.values()))]
    if isinstance(i, zipimport.zipimporter)
}.values()
with zipfile.ZipFile(STDLIB) as stdlib:
    files = [(f"{STDLIB}/{info.filename}", stdlib.read(info)) for info in stdlib.infolist() if not info.is_dir()]
stale = sorted({path for importer in importers for path, data in files if not reads(importer, path, data)})
if stale:
    raise RuntimeError(f"the snapshot's importers read {len(stale)} files of the standard library wrong: {stale[:5]}")
len(files) * len(importers)
