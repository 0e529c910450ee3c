"""``python build.py [--serve] [--port N] [--force]``."""

from __future__ import annotations

import argparse
import sys

from .assemble import build, is_up_to_date
from .serve import make_server
from .util import BuildError, log


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build Kostka's offline static site into site/.")
    parser.add_argument("--serve", action="store_true", help="build if needed, then serve site/ on 127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="port for --serve (default 8000)")
    parser.add_argument("--force", action="store_true", help="rebuild even if site/ is up to date")
    args = parser.parse_args(argv)
    try:
        if args.force or not is_up_to_date():
            build()
        else:
            log("site/ is up to date" + ("" if args.serve else " (use --force to rebuild)"))
    except BuildError as exc:
        print(f"build.py: error: {exc}", file=sys.stderr)
        return 1
    if args.serve:
        try:
            server = make_server(args.port)
        except OSError as exc:
            print(f"build.py: error: cannot listen on 127.0.0.1:{args.port}: {exc}", file=sys.stderr)
            return 1
        print(f"Serving Kostka at http://127.0.0.1:{server.server_address[1]}/  (Ctrl+C to stop)", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
    return 0
