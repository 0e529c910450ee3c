# Run under Pyodide by pyc_compiler.js: each wheel in `names` (under /work) rewritten with .pyc
# (unchecked, timestamp 0) in place of each .py that compiles.
import importlib._bootstrap_external as bx
import io
import sys
import zipfile

SITE_PACKAGES = f"/lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages"  # as Pyodide lays it out

for name in names:
    src = zipfile.ZipFile("/work/" + name)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename.endswith(".py"):
                try:
                    code = compile(data, f"{SITE_PACKAGES}/{info.filename}", "exec", dont_inherit=True)
                except SyntaxError:
                    dst.writestr(info, data)
                    continue
                info = zipfile.ZipInfo(info.filename + "c", info.date_time)
                info.compress_type = zipfile.ZIP_DEFLATED
                data = bytes(bx._code_to_timestamp_pyc(code, 0, len(data)))
            dst.writestr(info, data)
    src.close()
    with open("/work/" + name, "wb") as f:
        f.write(buf.getvalue())
