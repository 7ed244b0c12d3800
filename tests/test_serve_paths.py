"""`league serve` against hostile request paths (issue 33, items 8 and 9): it never answers a redirect to another
host (browsers read "/\\host" as "//host": `/\\evil.example/%2e%2e/2026` used to get `Location: /\\evil.example/…`),
serves no file outside site/, and an 8,000- or 100,000-character path gets 414 or 404 with nothing in its log.
Requests are sent raw on a socket, byte for byte, to the server running on 127.0.0.1."""
from __future__ import annotations

import socket
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from league.cli.serve import DevServer
from league.cli.serve.handler import MAX_TARGET, site_path
from tests.bad_input.harness import copy_base

SECRET = "segredo-fora-do-site-7f3a"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("serve")
    content = copy_base(tmp / "src")
    out = tmp / "out" / "site"
    out.parent.mkdir()
    for where in (tmp / "secret.txt", tmp / "out" / "secret.txt", tmp / "out" / "secret.html"):
        where.write_text(SECRET, encoding="utf-8")
    lines: list[str] = []
    srv = DevServer(content, out, port=0, watch=False, echo=lines.append)
    srv.start()
    srv.lines = lines
    assert (out / "2026" / "index.html").is_file()
    try:
        yield srv
    finally:
        srv.stop()


def raw(server: DevServer, target: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names) and body of one request sent as is."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(f"{method} {target} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode("latin-1"))
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        assert name.lower() not in headers or name.lower() != "location", head   # one Location at most
        headers[name.lower()] = value.strip()
    return int(status_line.split()[1]), headers, body


def assert_same_host(location: str) -> None:
    assert location.startswith("/"), location
    assert not location.startswith("//") and "\\" not in location, location
    parts = urlsplit(location)
    assert parts.scheme == "" and parts.netloc == "", location
    assert "//" not in parts.path, location
    for c in location:
        assert 0x21 <= ord(c) < 0x7f, location   # quoted: no space, control or raw non-ASCII character


HOSTS = ["evil.example", "evil.example:80", "%65vil.example", "evil.example%2F", "127.0.0.1@evil.example"]
TRAVERSALS = [
    "/\\{h}/%2e%2e/2026", "/%5C{h}/%2e%2e/2026", "/%5c{h}/..%2f2026", "/\\/{h}/%2e%2e/2026", "//{h}/%2e%2e/2026",
    "///{h}/..%2f2026", "/%2F{h}/..", "/%2F%2F{h}/%2e%2e/2026", "/%2f%2f{h}/%2e%2e/%2e%2e/2026", "/.//{h}/../2026",
    "/./\\{h}/../2026", "/2026/..//{h}/..", "/%2e/%2f{h}/%2e%2e", "/2026/%2e%2e/%2F%2F{h}/%2e%2e",
    "http://{h}/2026", "http://{h}//{h}/../2026", "https://{h}/%2e%2e/2026", "//{h}", "/%09/{h}/../2026",
    "/2026%0d%0aLocation:%20http://{h}/", "/2026/%0d%0a/..", "/2026?next=//{h}", "/2026?%0d%0aLocation:%20//{h}",
    "/%2e%2e/%2e%2e/%2e%2e/2026", "/..%2f..%2f2026", "/2026/.", "/2026/..", "/2026/./", "/2026/truco/..",
    "/%2e%2e%5c2026", "/2026%5c", "/2026%00", "/2026%2500", "/%252e%252e/2026", "/2026;/",
    "/%E2%80%AE/..%2f2026", "/2026/%C0%AE%C0%AE/", "/\u00a0/../2026", "/%C2%A0/{h}/../2026",
]
OUTSIDE = [
    "/../secret.txt", "/%2e%2e/secret.txt", "/%2e%2e/%2e%2e/secret.txt", "/..%2f..%2fsecret.txt",
    "/..%5c..%5csecret.txt", "/static/../../secret.txt", "/static/%2e%2e/%2e%2e/secret.txt",
    "/%252e%252e/secret.txt", "/%252e%252e/%252e%252e/secret.txt", "/....//....//secret.txt",
    "/..;/secret.txt", "//../secret.txt", "/%2e%2e%2f%2e%2e%2fsecret.txt", "/2026/../../../secret.html",
    "/%c0%ae%c0%ae/secret.txt", "/.%2e/.%2e/secret.txt", "http://127.0.0.1/../../secret.txt",
    "/..\\..\\secret.txt", "/" + "../" * 40 + "secret.txt", "/" + "%2e%2e/" * 40 + "etc/passwd",
]


@pytest.mark.parametrize("target", [t.format(h=h) for t in TRAVERSALS for h in HOSTS[:2]]
                         + [TRAVERSALS[0].format(h=h) for h in HOSTS[2:]])
def test_no_redirect_leaves_the_host(server, target):
    for method in ("GET", "HEAD"):
        status, headers, body = raw(server, target, method)
        assert status in (200, 301, 400, 404, 414), (target, status)   # 400: a raw NBSP splits the line
        if "location" in headers:
            assert status == 301
            assert_same_host(headers["location"])
        assert SECRET.encode() not in body


def test_the_reported_redirect(server):
    status, headers, _ = raw(server, "/\\evil.example/%2e%2e/2026")
    assert status == 404 and "location" not in headers
    # a folder asked without its "/" goes to its one address, made from the path as resolved
    for target, where in [("/2026", "/2026/"), ("//evil.example/%2e%2e/2026", "/2026/"), ("/2026/truco/..", "/2026/"),
                          ("/x/%2e%2e/2026?a=1&b=//evil", "/2026/?a=1&b=//evil"), ("/2026//", "/2026/"),
                          ("http://evil.example/2026", "/2026/"), ("/%2F%2Fevil.example/..", "/")]:
        status, headers, _ = raw(server, target)
        assert (status, headers.get("location")) == (301, where), target
    status, headers, body = raw(server, "/2026/")
    assert status == 200 and b"</html>" in body and "location" not in headers


@pytest.mark.parametrize("target", OUTSIDE)
def test_no_file_outside_the_site(server, target):
    status, headers, body = raw(server, target)
    assert SECRET.encode() not in body and b"root:" not in body, target
    assert status in (301, 404, 414), (target, status)
    if "location" in headers:
        assert_same_host(headers["location"])


def test_files_inside_the_site_are_still_served(server):
    css = next((server.out / "static").glob("*.css"))
    for target in (f"/static/{css.name}", f"/static/../static/{css.name}", f"/static/%2e/{css.name}",
                   f"/static/{css.name}?v=1", f"/x/../static/{css.name}"):
        status, headers, body = raw(server, target)
        assert status == 200 and body == css.read_bytes(), target
    # a file whose name holds a percent sign is found, not decoded twice
    (server.out / "static" / "a%41.txt").write_text("cem por cento", encoding="utf-8")
    assert raw(server, "/static/a%2541.txt")[2] == b"cem por cento"
    assert raw(server, "/static/aA.txt")[0] == 404


@pytest.mark.parametrize("length", [300, 4000, 8000, 60000, 100000])
@pytest.mark.parametrize("shape", ["a", "a/", "%2e%2e/", "\\"])
def test_a_very_long_path_is_answered_cleanly(server, capfd, length, shape):
    target = "/" + shape * (length // len(shape))
    logged = len(server.lines)
    status, headers, body = raw(server, target)
    assert status == (414 if len(target) > MAX_TARGET else 404) or (shape != "a" and status in (301, 404)), status
    if "location" in headers:
        assert_same_host(headers["location"])
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err and server.lines[logged:] == [], (out + err)[-2000:]


def test_a_failing_request_is_one_line_in_the_log(server, capfd, monkeypatch):
    import league.cli.serve.handler

    def boom(*args):
        raise RuntimeError("falha de teste")
    monkeypatch.setattr(league.cli.serve.handler, "site_path", boom)
    logged = len(server.lines)
    try:
        raw(server, "/2026/")
    except (ConnectionError, IndexError):
        pass
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err
    assert server.lines[logged:] == [("erro interno do league serve ao responder a um pedido: RuntimeError: falha de teste; "
                                "por favor, relate o problema com a saída de --debug")]


def test_site_path():
    assert site_path("/") == "/"
    assert site_path("") == "/"
    assert site_path("/a/./b/../c") == "/a/c"
    assert site_path("/../../a/") == "/a/"
    assert site_path("/a/b/..") == "/a/"
    assert site_path("//a//b") == "/a/b"
    assert site_path("/\\evil.example/../2026") is None
    assert site_path("/a\x00b") is None and site_path("/a\r\nb") is None and site_path("/a\tb") is None
    assert site_path("/" + "a" * 256) is None and site_path("/" + "a" * 255) == "/" + "a" * 255
    assert site_path("/é" * 3) == "/é/é/é"


@pytest.mark.parametrize("debug", [False, True])
def test_an_unexpected_build_failure_shows_its_traceback_only_with_debug(tmp_path, monkeypatch, debug):
    import league.engine.build

    def boom(*args, **kwargs):
        raise RuntimeError("falha inesperada")
    content = copy_base(tmp_path / "src")
    monkeypatch.setattr(league.engine.build, "build", boom)
    lines: list[str] = []
    srv = DevServer(content, tmp_path / "site", port=0, echo=lines.append, debug=debug)
    assert not srv.rebuild()
    text = "\n".join(lines)
    assert ("Traceback" in text) is debug
    assert "erro inesperado na construção do site: RuntimeError: falha inesperada" in text
    assert "relate o problema com a saída de league --debug serve" in text


if sys.platform == "win32":  # pragma: no cover
    pytestmark = pytest.mark.skip("paths of a POSIX file system")
