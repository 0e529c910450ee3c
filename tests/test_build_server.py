"""build.py's local server: what the browser and the service worker get for each request."""

from __future__ import annotations

import gzip
import http.client
import os
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402

sys.path.remove(str(ROOT))


@pytest.fixture
def server(tmp_path):
    (tmp_path / "index.html").write_text("<!doctype html><title>Kostka</title>")
    (tmp_path / "app.js").write_text("console.log('kostka');" * 50)
    (tmp_path / "sw.js").write_text("// service worker")
    (tmp_path / "wheel.whl").write_bytes(b"PK" + bytes(range(256)))
    old = 1_600_000_000
    for p in tmp_path.iterdir():
        os.utime(p, (old, old))
    httpd = build.make_server(0, tmp_path)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield httpd.server_address[1], tmp_path
    httpd.shutdown()
    httpd.server_close()


def get(port: int, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path, headers=headers)
    r = conn.getresponse()
    body = r.read()
    conn.close()
    return r.status, {k.lower(): v for k, v in r.getheaders()}, body


def test_text_files_are_gzipped_for_browsers_that_accept_it(server):
    port, root = server
    status, headers, body = get(port, "/app.js", **{"Accept-Encoding": "gzip, br"})
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert gzip.decompress(body) == (root / "app.js").read_bytes()
    status, headers, body = get(port, "/app.js")
    assert status == 200 and "content-encoding" not in headers and body == (root / "app.js").read_bytes()
    status, headers, body = get(port, "/wheel.whl", **{"Accept-Encoding": "gzip"})  # compressed already
    assert status == 200 and "content-encoding" not in headers and body == (root / "wheel.whl").read_bytes()


@pytest.mark.parametrize("path", ["/app.js", "/wheel.whl", "/"])
@pytest.mark.parametrize("encoding", ["gzip", "identity"])
def test_revalidation_gets_not_modified_instead_of_a_second_copy(server, path, encoding):
    port, _ = server
    status, headers, _ = get(port, path, **{"Accept-Encoding": encoding})
    assert status == 200 and headers["etag"] and headers["last-modified"]
    status, _, body = get(port, path, **{"Accept-Encoding": encoding, "If-None-Match": headers["etag"]})
    assert (status, body) == (304, b"")
    status, _, body = get(port, path, **{"Accept-Encoding": encoding, "If-Modified-Since": headers["last-modified"]})
    assert (status, body) == (304, b"")


def test_changed_files_are_sent_again(server):
    port, root = server
    _, first, _ = get(port, "/app.js", **{"Accept-Encoding": "gzip"})
    (root / "app.js").write_text("console.log('new build');")
    status, headers, body = get(port, "/app.js", **{"Accept-Encoding": "gzip", "If-None-Match": first["etag"]})
    assert status == 200 and headers["etag"] != first["etag"]
    assert gzip.decompress(body) == b"console.log('new build');"
    status, _, _ = get(port, "/app.js", **{"If-Modified-Since": first["last-modified"]})
    assert status == 200


def test_the_service_worker_is_always_rechecked_and_missing_files_are_404(server):
    port, _ = server
    status, headers, _ = get(port, "/sw.js")
    assert status == 200 and headers["cache-control"] == "no-cache"
    assert get(port, "/nothing.js")[0] == 404
    assert get(port, "/app.js", **{"If-Modified-Since": "not a date"})[0] == 200


def raw_request(port: int, request: bytes) -> bytes:
    """What the server answers to ``request`` sent as is (no client library to tidy it up)."""
    import socket

    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        sock.shutdown(socket.SHUT_WR)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


@pytest.mark.parametrize(
    ("request_line", "status"),
    [
        pytest.param(
            b"GET /" + b"a" * 70_000 + b" HTTP/1.1", b"414", id="over-64KB"
        ),  # longer than a request line may be
        pytest.param(b"GET", b"400", id="no-path"),
        pytest.param(b"GET / HTTP/1.1 extra", b"400", id="four-words"),
        pytest.param(b"GET / HTTP/9", b"400", id="bad-version"),
        pytest.param(b"\x00\xff\xfe", b"400", id="binary"),
    ],
)
def test_a_request_line_too_long_or_malformed_gets_its_error_status(server, request_line, status):
    port, _ = server
    answer = raw_request(port, request_line + b"\r\nHost: 127.0.0.1\r\n\r\n")
    assert answer.split(b"\r\n", 1)[0].split(b" ")[1] == status, answer[:200]
    assert get(port, "/app.js")[0] == 200  # and the server goes on serving


def test_the_longest_address_the_app_writes_is_served_and_one_over_64kb_is_not(server):
    """The app keeps its address within MAX_WRITTEN characters; the server takes that and answers
    414 to a request line over 64 KB (a 200-row Cyrillic sheet's whole address was 79,863)."""
    from webapp.state.address import MAX_WRITTEN

    port, _ = server
    longest = "?lang=ru&skills=" + "%D0%96" * ((MAX_WRITTEN - 16) // 6)
    assert MAX_WRITTEN - 6 < len(longest) <= MAX_WRITTEN
    assert get(port, "/" + longest)[0] == 200
    answer = raw_request(port, b"GET /?" + b"%D0%96" * 13_311 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert answer.split(b" ", 2)[1] == b"414"


@pytest.mark.parametrize("path", ["/%00", "/app.js%00", "/%00/../app.js", "/a%00b/"])
def test_a_nul_byte_in_the_path_is_answered_400(server, path):
    port, _ = server
    answer = raw_request(port, b"GET " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    assert answer.split(b"\r\n", 1)[0].split(b" ")[1] == b"400", answer[:200]
    assert get(port, "/app.js")[0] == 200  # and the server goes on serving


@pytest.fixture
def outside(server, tmp_path_factory):
    """Beside the site: a secret file and a folder, and links to them from inside the site, and a
    link inside the site to a file of the site."""
    port, root = server
    away = tmp_path_factory.mktemp("outside")
    (away / "secret.txt").write_text("not for the site")
    (away / "index.html").write_text("<title>not the site</title>")
    (root / "leak.txt").symlink_to(away / "secret.txt")
    (root / "leak-dir").symlink_to(away, target_is_directory=True)
    (root / "folder").mkdir()
    (root / "folder" / "index.html").symlink_to(away / "index.html")
    (root / "same.js").symlink_to(root / "app.js")
    return port, root


@pytest.mark.parametrize("path", ["/leak.txt", "/leak-dir/secret.txt", "/leak-dir/", "/folder/", "/folder/index.html"])
@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_links_out_of_the_site_are_not_followed(outside, path, method):
    port, _ = outside
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request(method, path)
    r = conn.getresponse()
    body = r.read()
    conn.close()
    assert r.status == 404, (path, r.status)
    assert b"not for the site" not in body and b"not the site" not in body


def test_a_link_inside_the_site_to_a_file_of_the_site_is_served(outside):
    port, root = outside
    status, _, body = get(port, "/same.js")
    assert status == 200 and body == (root / "app.js").read_bytes()
