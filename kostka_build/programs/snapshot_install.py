# Making the snapshot, first: every wheel in /tmp/wheels installed as the worker installs them,
# then Panel imported with its CDN root pointed at the site's copy (`panel_root`, set by snapshot.js).
import importlib
import os
import sys
import zipfile

SITE_PACKAGES = f"/lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages"  # as Pyodide lays it out
for name in sorted(os.listdir("/tmp/wheels")):
    with zipfile.ZipFile(f"/tmp/wheels/{name}") as wheel:  # as the worker unpacks them
        for entry in wheel.namelist():
            if not entry.endswith("/") and not entry.split("/")[0].endswith(".data"):
                wheel.extract(entry, SITE_PACKAGES)
    os.remove(f"/tmp/wheels/{name}")
os.rmdir("/tmp/wheels")
importlib.invalidate_caches()
os.environ["PANEL_CDN_ROOT"] = panel_root  # relative: resolved against the page (internals.PANEL_CDN_ROOT_ENV)
del panel_root
