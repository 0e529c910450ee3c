# Making the snapshot, first: every wheel in /tmp/wheels installed as the worker installs them,
# then Panel imported with its CDN root pointed at the site's copy (`panel_root`, set by snapshot.js).
import importlib
import os
import zipfile

SITE_PACKAGES = "/lib/python3.12/site-packages"
for name in sorted(os.listdir("/tmp/wheels")):
    with zipfile.ZipFile(f"/tmp/wheels/{name}") as wheel:  # as the worker unpacks them
        for entry in wheel.namelist():
            if not entry.endswith("/") and not entry.split("/")[0].endswith(".data"):
                wheel.extract(entry, SITE_PACKAGES)
    os.remove(f"/tmp/wheels/{name}")
os.rmdir("/tmp/wheels")
importlib.invalidate_caches()
os.environ["KOSTKA_PANEL_ROOT"] = panel_root  # relative: resolved against the page
del panel_root
