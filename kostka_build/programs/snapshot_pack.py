# Making the snapshot, last: the files a restored interpreter may still read, into /tmp/files.zip
# (the modules it holds in memory, the installers' RECORD lists, and what config.SNAPSHOT_LEFT_OUT
# names, set as `left_out` and `kept` by snapshot.js, left out), and the standard
# library's zip without the modules it holds, into /tmp/stdlib.zip (write_zip_without, from
# zip_without.py, run before this). That zip then takes the full one's place, and the importers of
# it read its table of contents again: the snapshot's importers find each file where the restored
# interpreter's zip (the same bytes) has it.
import os
import sys
import zipfile
import zipimport
from fnmatch import fnmatchcase as fnmatch

SITE_PACKAGES = f"/lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages"  # as Pyodide lays it out
STDLIB = next(p for p in sys.path if p.endswith(".zip"))  # Pyodide writes python_stdlib.zip there
held = {m.__file__ for m in list(sys.modules.values()) if isinstance(getattr(m, "__file__", None), str)}
shared = sorted(f for f in held if ".so" in f.rsplit("/", 1)[-1])
if shared:  # a snapshot cannot hold a loaded shared library (its code lies outside the memory)
    raise RuntimeError(f"the snapshot would hold shared libraries: {shared}")
with zipfile.ZipFile("/tmp/files.zip", "w") as out:  # stored: the build reads it, then compresses all at once
    for folder, _dirs, files in sorted(os.walk(SITE_PACKAGES)):
        for name in sorted(files):
            path = f"{folder}/{name}"
            rel = path[len(SITE_PACKAGES) + 1 :]
            if path in held or path.endswith(".dist-info/RECORD"):  # RECORD: read by installers only
                continue
            if any(fnmatch(rel, p) for p in left_out) and not any(fnmatch(rel, p) for p in kept):
                continue
            out.writestr(zipfile.ZipInfo(rel), open(path, "rb").read())
# held: modules imported from the zip, and those the interpreter has frozen in (os, codecs, site…),
# whose sources in the zip it never reads
specs = [getattr(m, "__spec__", None) for m in list(sys.modules.values())]
frozen = [s for s in specs if getattr(s, "origin", None) == "frozen"]
held_stdlib = {f[len(STDLIB) + 1 :] for f in held if f.startswith(STDLIB + "/")} | {
    s.name.replace(".", "/") + ("/__init__.py" if s.submodule_search_locations is not None else ".py") for s in frozen
}
write_zip_without(STDLIB, "/tmp/stdlib.zip", held_stdlib)
write_zip_without("/tmp/stdlib.zip", STDLIB, set())  # a copy (shutil's would leave its last piece in memory)
importers = {
    id(i): i
    for i in [*sys.path_importer_cache.values(), *(getattr(m, "__loader__", None) for m in list(sys.modules.values()))]
    if isinstance(i, zipimport.zipimporter)
}.values()
# One of them reads the zip's table of contents again (Python >= 3.10); the others, made again
# for the same place, share it, as importers made alike do.
next(iter(importers)).invalidate_caches()
for importer in importers:
    importer.__init__(os.path.join(importer.archive, importer.prefix).rstrip("/"))
del (
    held,
    shared,
    frozen,
    held_stdlib,
    out,
    importers,
    importer,
    folder,
    _dirs,
    files,
    name,
    path,
    write_zip_without,
    CENTRAL,
    END,
)
