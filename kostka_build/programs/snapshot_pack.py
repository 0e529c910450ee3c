# Making the snapshot, last: the files a restored interpreter may still read, into /tmp/files.zip
# (the modules it holds in memory, and the installers' RECORD lists, left out).
import os
import sys
import zipfile

SITE_PACKAGES = "/lib/python3.12/site-packages"
held = {m.__file__ for m in list(sys.modules.values()) if isinstance(getattr(m, "__file__", None), str)}
shared = sorted(f for f in held if ".so" in f.rsplit("/", 1)[-1])
if shared:  # Pyodide 0.27 cannot restore a loaded shared library
    raise RuntimeError(f"the snapshot would hold shared libraries: {shared}")
with zipfile.ZipFile("/tmp/files.zip", "w") as out:  # stored: the build reads it, then compresses all at once
    for folder, _dirs, files in sorted(os.walk(SITE_PACKAGES)):
        for name in sorted(files):
            path = f"{folder}/{name}"
            if path not in held and not path.endswith(".dist-info/RECORD"):  # read by installers only
                out.writestr(zipfile.ZipInfo(path[len(SITE_PACKAGES) + 1 :]), open(path, "rb").read())
del held
