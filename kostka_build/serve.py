"""``build.py --serve``'s server: the site with the right types, gzip, conditional requests (as
any static host answers them) and the site's Content-Security-Policy headers."""

from __future__ import annotations

import email.utils
import functools
import gzip
import http.server
import io
import os
import urllib.parse
from http import HTTPStatus
from pathlib import Path

from . import config

# Served gzip-compressed when the browser accepts it, as any production static host does
# (the wheels and python_stdlib.zip are compressed already).
GZIP_SUFFIXES = {".wasm", ".js", ".mjs", ".css", ".html", ".json", ".webmanifest", ".svg"}


@functools.lru_cache(maxsize=256)
def gzipped(path: str, mtime: float, size: int) -> bytes:
    return gzip.compress(Path(path).read_bytes(), compresslevel=6, mtime=0)


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **config.MIME_TYPES}
    # A request line without a version gets its error with a status line (not HTTP/0.9's bare body).
    default_request_version = "HTTP/1.0"

    def __init__(self, *args, directory=None, **kwargs):
        super().__init__(*args, directory=str(directory or config.SITE), **kwargs)

    def send_head(self):
        # A NUL byte cannot be in a file name: the file system call would raise, and the request
        # would be dropped with no answer at all.
        if "\x00" in urllib.parse.unquote(self.path.split("?", 1)[0].split("#", 1)[0], errors="surrogatepass"):
            self.send_error(HTTPStatus.BAD_REQUEST, "NUL byte in the path")
            return None
        translated = self.translate_path(self.path)
        if not self.inside_site(translated):
            self.send_error(HTTPStatus.NOT_FOUND, "File not found")
            return None
        path = Path(translated)
        if path.is_dir():
            path = path / "index.html"
        self.etag = None
        if not path.is_file():
            return super().send_head()  # a folder to redirect to, or a 404
        # Conditional requests, as any static host answers them: the service worker revalidates
        # what the page has just fetched and gets "304 Not Modified" instead of a second copy.
        stat = path.stat()
        self.etag = f'W/"{stat.st_mtime_ns:x}-{stat.st_size:x}"'
        if self.etag in self.headers.get("If-None-Match", "") or self.not_modified_since(stat.st_mtime):
            self.send_response(304)
            self.end_headers()
            return None
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.suffix in GZIP_SUFFIXES and self.path.split("?")[0].endswith(("/", path.name))):
            return super().send_head()
        body = gzipped(str(path), stat.st_mtime, stat.st_size)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(stat.st_mtime))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)

    def inside_site(self, translated: str) -> bool:
        """Whether ``translated`` (and a folder's index page) is in the site once every symbolic link
        on the way is followed: a link inside the site to a file of the site is served, a link
        out of the site is not (answered 404, as if it were not there)."""
        root = os.path.realpath(self.directory)
        candidates = [translated]
        if os.path.isdir(translated):
            candidates += [os.path.join(translated, index) for index in ("index.html", "index.htm")]
        for candidate in candidates:
            real = os.path.realpath(candidate)
            if real != root and not real.startswith(root.rstrip(os.sep) + os.sep):
                return False
        return True

    def not_modified_since(self, mtime: float) -> bool:
        since = self.headers.get("If-Modified-Since")
        if not since or self.headers.get("If-None-Match"):
            return False
        try:
            return int(mtime) <= email.utils.parsedate_to_datetime(since).timestamp()
        except (TypeError, ValueError, OverflowError):
            return False

    def end_headers(self):
        if getattr(self, "etag", None):
            self.send_header("ETag", self.etag)
        path = getattr(self, "path", "").split("?")[0]
        self.send_header(
            "Content-Security-Policy", config.WORKER_CSP if path.endswith(config.WORKER_SCRIPTS) else config.CSP_HEADER
        )
        # sw.js must be re-checked on every visit so a new build replaces the old cache. (An error
        # answered before the request line was read, such as 414 or 400, has no path.)
        if getattr(self, "path", "").split("?")[0].endswith("sw.js"):
            self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format, *args):  # quiet: one line per error only
        if args and str(args[1]).startswith(("4", "5")):
            super().log_message(format, *args)


def make_server(port: int = 0, directory: Path | None = None) -> http.server.ThreadingHTTPServer:
    handler = functools.partial(SiteHandler, directory=directory or config.SITE)
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
