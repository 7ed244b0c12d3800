"""`league serve`: the dev server in a thread on a free port. A change under content/ is seen by a file event,
rebuilt, and told to the open page by Server-Sent Events (/__league/events), and the new content is served; a
broken file shows the error page (every error with file:line:col, escaped) while the last good site stays;
fixing it recovers. Also a broken template, an unexpected failure, and the real command.
"""
from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest

from league.cli.serve import DevServer
from league.cli.serve.failures import _unexpected
from league.cli.serve.live import State, error_page, inject
from tests.bad_input.harness import copy_base

ROOT = Path(__file__).resolve().parent.parent
STAGE = "seasons/2026/truco/etapa-1.yaml"
CHAMP = "seasons/2026/quatrilho/chapeco.yaml"
WAIT = 20.0  # seconds: the most any rebuild may take here (each takes well under one)
HEAR = 10.0  # seconds: the most a page may wait to hear of a save (a rebuild of the demo takes ~0.3 s)


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8")


def version(server: DevServer) -> dict:
    return json.loads(get(f"http://127.0.0.1:{server.port}/__league/version")[1])


def wait_version(server: DevServer, after: int) -> dict:
    """The version document once a build newer than `after` has finished."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        v = version(server)
        if v["version"] > after and not v["building"]:
            return v
        time.sleep(0.05)
    pytest.fail(f"nenhuma reconstrução depois da versão {after} em {WAIT:.0f} s")


def edit(path: Path, *pairs: str) -> None:
    """Replace old → new (pairs of arguments) in one write, so the watcher never sees half the edit."""
    text = path.read_text(encoding="utf-8")
    for old, new in zip(pairs[::2], pairs[1::2]):
        assert old in text
        text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")


def assert_not_at_league(page: str) -> None:
    """An error page names no file of league's own code (the reload script is the server's address)."""
    text = page.replace("/__league/reload.js", "")
    assert not re.search(r"league/|\.py\b|Traceback", text), text


class Events:
    """A page's /__league/events stream, read as a browser's EventSource reads it: each event's name and
    data (JSON) in a queue, None at the end of the stream; comments (the heartbeat) counted."""

    def __init__(self, server: DevServer):
        self.sock = socket.create_connection(("127.0.0.1", server.port), timeout=HEAR)
        self.sock.sendall(b"GET /__league/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
        self.file = self.sock.makefile("rb")
        self.status = int(self.file.readline().split()[1])
        self.headers = {}
        while line := self.file.readline().decode("latin-1").strip():
            name, _, value = line.partition(":")
            self.headers[name.lower()] = value.strip()
        self.sock.settimeout(None)   # the waits are the queue's
        self.queue: queue.Queue = queue.Queue()
        self.comments = 0
        self.retry = None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        name, data = "message", []
        try:
            for raw in self.file:
                line = raw.decode("utf-8").rstrip("\r\n")
                if not line:
                    if data:
                        self.queue.put((name, json.loads("\n".join(data))))
                    name, data = "message", []
                elif line.startswith(":"):
                    self.comments += 1
                else:
                    field, _, value = line.partition(":")
                    value = value[1:] if value.startswith(" ") else value
                    if field == "event":
                        name = value
                    elif field == "data":
                        data.append(value)
                    elif field == "retry":
                        self.retry = int(value)
        except (OSError, ValueError):
            pass
        self.queue.put(None)

    def next(self, wait: float = HEAR):
        try:
            return self.queue.get(timeout=wait)
        except queue.Empty:
            pytest.fail(f"nenhum evento em {wait:.0f} s")

    def quiet(self, wait: float) -> bool:
        """True when no event comes within `wait` seconds."""
        try:
            got = self.queue.get(timeout=wait)
        except queue.Empty:
            return True
        self.queue.put(got)
        return False

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.file.close()
        self.sock.close()


@pytest.fixture
def server(tmp_path):
    content = copy_base(tmp_path / "src")
    templates = tmp_path / "templates"
    shutil.copytree(ROOT / "league" / "templates", templates)
    lines: list[str] = []
    srv = DevServer(content, tmp_path / "out" / "site", templates=templates, port=0,
                    echo=lines.append)
    srv.start()
    srv.lines = lines
    try:
        yield srv
    finally:
        srv.stop()


def test_serves_the_site_with_the_reload_script_only_in_responses(server):
    status, body = get(server.url)
    assert status == 200
    assert '<script src="/__league/reload.js" data-version="1"></script>' in body
    built = (server.out / "index.html").read_text(encoding="utf-8")
    assert "__league" not in built                                  # the built files stay clean
    assert body.replace('<script src="/__league/reload.js" data-version="1"></script>\n', "") == built
    status, js = get(f"http://127.0.0.1:{server.port}/__league/reload.js")
    assert status == 200 and "/__league/events" in js and "location.reload()" in js
    assert version(server) == {"version": 1, "ok": True, "errors": 0, "building": False}
    css = next(server.out.glob("static/*.css")).name
    status, text = get(f"http://127.0.0.1:{server.port}/static/{css}")
    assert status == 200 and "__league" not in text                 # only HTML gets the script
    status, missing = get(f"http://127.0.0.1:{server.port}/nao-existe/")
    assert status == 404 and "/__league/reload.js" in missing       # the site's 404 page, reloading too


def test_change_rebuilds_and_serves_new_content(server):
    v = version(server)["version"]
    edit(server.content / "clubs.yaml", "aptru: {name: APTRU,", "aptru: {name: APTRU Renomeada,")
    now = wait_version(server, v)
    assert now["ok"] and now["version"] == v + 1
    status, body = get(f"http://127.0.0.1:{server.port}/clubes/aptru/")
    assert status == 200 and "APTRU Renomeada" in body
    assert f'data-version="{v + 1}"' in body
    assert any(line.startswith("mudou: ") and "clubs.yaml" in line for line in server.lines)


def test_broken_content_shows_error_page_then_recovers(server):
    stage = server.content / STAGE
    champ = server.content / CHAMP
    good_stage, good_champ = stage.read_text(encoding="utf-8"), champ.read_text(encoding="utf-8")
    v = version(server)["version"]
    last_good = (server.out / "index.html").read_bytes()

    edit(champ, "4: 86}", "4: 96}")                                   # chips off by 10
    edit(stage, "host: aptru", 'host: "<b>aptru</b>"')                # HTML in a message
    now = wait_version(server, v)
    if now["errors"] == 1:                                            # the watcher saw one file before the other
        now = wait_version(server, now["version"])
    assert now["ok"] is False and now["errors"] == 2 and now["building"] is False

    status, page = get(server.url)
    assert status == 500
    assert "O conteúdo tem 2 erro(s)" in page
    assert ("<code>content/seasons/2026/quatrilho/chapeco.yaml:18:7</code> mesa 1, rodada 1: soma 410, "
            "esperado 400") in page
    assert ("<code>content/seasons/2026/truco/etapa-1.yaml:3:7</code> id inválido em host: recebido "
            "&quot;&lt;b&gt;aptru&lt;/b&gt;&quot; (texto)") in page        # escaped
    assert "<b>aptru</b>" not in page
    assert f'data-version="{now["version"]}"' in page                # reloads when fixed
    assert any("chapeco.yaml:18:7: erro:" in line for line in server.lines)     # and in the terminal
    # every page shows the errors; the last good site stays on disk and one click away
    assert get(f"http://127.0.0.1:{server.port}/clubes/aptru/")[0] == 500
    assert (server.out / "index.html").read_bytes() == last_good
    status, previous = get(server.url + "?__league=anterior")
    assert status == 200 and previous.startswith(last_good.decode("utf-8")[:200])
    css = next(server.out.glob("static/*.css")).name
    assert get(f"http://127.0.0.1:{server.port}/static/{css}")[0] == 200

    broken = now["version"]
    champ.write_text(good_champ, encoding="utf-8")
    stage.write_text(good_stage, encoding="utf-8")
    now = wait_version(server, broken)
    if not now["ok"]:
        now = wait_version(server, now["version"])
    assert now["ok"] and now["errors"] == 0
    status, page = get(server.url)
    assert status == 200 and "erro(s)" not in page


def test_broken_template_does_not_stop_the_server(server):
    base = server.templates / "base.html"
    good = base.read_text(encoding="utf-8")
    v = version(server)["version"]
    base.write_text(good.replace("{% block main %}{% endblock %}", "{% block main %}{% endblok %}"), encoding="utf-8")
    now = wait_version(server, v)
    assert not now["ok"]
    status, page = get(server.url)
    assert status == 500 and "base.html" in page and "erro de sintaxe no template" in page
    base.write_text(good, encoding="utf-8")
    assert wait_version(server, v + 1)["ok"]
    assert get(server.url)[0] == 200


def test_first_build_with_errors_still_serves(tmp_path):
    content = copy_base(tmp_path / "src")
    edit(content / STAGE, "date: 2026-03-14", "date: 2026-02-30")
    srv = DevServer(content, tmp_path / "site", port=0, echo=lambda s: None)
    srv.start()
    try:
        status, page = get(srv.url)
        assert status == 500 and 'data inexistente &quot;2026-02-30&quot;' in page
        edit(content / STAGE, "date: 2026-02-30", "date: 2026-03-14")
        assert wait_version(srv, 1)["ok"]
        assert get(srv.url)[0] == 200
    finally:
        srv.stop()


def test_base_url_path_is_served_at_its_prefix(tmp_path):
    content = copy_base(tmp_path / "src")
    edit(content / "league.yaml", "base_url: https://example.org/", "base_url: https://example.org/liga/")
    srv = DevServer(content, tmp_path / "site", port=0, echo=lambda s: None)
    srv.start()
    try:
        assert srv.url.endswith("/liga/")
        status, page = get(srv.url)
        assert status == 200 and 'href="/liga/clubes/' in page
        assert get(srv.url + "clubes/aptru/")[0] == 200
    finally:
        srv.stop()


def test_inject_without_body_tag():
    assert inject(b"<p>x", 3) == b'<p>x<script src="/__league/reload.js" data-version="3"></script>\n'


# `league serve` as `python -m league serve` runs it, but with Ctrl+C's default handler: a `make test` started
# in the background (`make test &` in a script) ignores SIGINT, every process it starts inherits that, and
# Python keeps an inherited SIG_IGN — the server would then rightly ignore the test's Ctrl+C
_LEAGUE = """
import signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.argv = ["league", *sys.argv[1:]]
from league.cli import run
run()
"""


@contextlib.contextmanager
def _served(tmp_path: Path, script: str = _LEAGUE) -> Iterator[subprocess.Popen]:
    """`league serve` on a copy of the base content, under `python -X faulthandler -c script` (see _ended);
    killed at the end of the block if it is still running."""
    content = copy_base(tmp_path / "src")
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-X", "faulthandler", "-c", script, "serve", "--port", "0",
                             "--content", str(content), "--out", str(tmp_path / "site")], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()


def _ended(proc: subprocess.Popen, timeout: float) -> int:
    """The exit status of a `league serve` started with `python -X faulthandler`; if it has not ended within
    `timeout`, SIGABRT makes it print every thread's traceback, and the test fails with them and its output."""
    try:
        return proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)
        try:
            out, _ = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, _ = proc.communicate()
        pytest.fail(f"league serve não parou em {timeout} s; sua saída e suas threads:\n{out[-8000:]}")


def test_command_line(tmp_path):
    """The real command: starts, prints its address, serves, and stops cleanly on Ctrl+C."""
    with _served(tmp_path) as proc:
        deadline = time.monotonic() + WAIT
        url = None
        while url is None and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            m = re.search(r"em (http://127\.0\.0\.1:\d+/)", line)
            url = m.group(1) if m else None
        assert url, "o servidor não informou o endereço"
        status, page = get(url)
        assert status == 200 and "/__league/reload.js" in page
        proc.send_signal(signal.SIGINT)
        assert _ended(proc, WAIT) == 0
        assert "parando." in proc.stdout.read()


# `league serve` run in a child whose helper thread hands SIGINT to the server's thread, not to the main one
_CTRL_C_ELSEWHERE = """
import linecache, signal, sys, threading, time
def asleep():
    # the main thread in serve's wait for Ctrl+C (its top frame on the time.sleep line), not still starting
    frame = sys._current_frames().get(threading.main_thread().ident)
    return frame is not None and "time.sleep(STOP_CHECK)" in linecache.getline(frame.f_code.co_filename,
                                                                                 frame.f_lineno)
def poke():
    while True:
        http = next((t for t in threading.enumerate() if t.name == "league-serve-http"), None)
        if http is not None and asleep():
            break
        time.sleep(0.05)
    print("ctrl-c to the server's thread", flush=True)
    signal.pthread_kill(http.ident, signal.SIGINT)
threading.Thread(target=poke, daemon=True).start()
""" + _LEAGUE


@pytest.mark.skipif(not hasattr(signal, "pthread_kill"), reason="POSIX threads only")
def test_ctrl_c_that_another_thread_receives_still_stops_the_server(tmp_path):
    """The kernel may hand a Ctrl+C to any thread of the process that does not block it. One that reached the
    server's thread used to leave the main thread asleep for an hour: the command never stopped (1 run in ~25
    of test_command_line hung so). Now it stops as after any Ctrl+C, within its short sleep."""
    with _served(tmp_path, _CTRL_C_ELSEWHERE) as proc:
        assert _ended(proc, WAIT) == 0
        out = proc.stdout.read()
        assert "ctrl-c to the server's thread" in out and "parando." in out


# `league serve` run in a child where the Ctrl+C comes right after the line that gives the address, before
# the host check has returned (the moment a user, or test_command_line, may press it once the address shows)
_CTRL_C_AT_ONCE = """
import os, signal
import league.cli.serve as serve
def only_here(host):
    os.kill(os.getpid(), signal.SIGINT)
    return True
serve.only_here = only_here
""" + _LEAGUE


def test_ctrl_c_just_after_the_address_still_stops_the_server_cleanly(tmp_path):
    """CI once saw test_command_line end with 130 (interrupted) instead of 0: the Ctrl+C arrived between the
    address line and the start of the block that stops the server cleanly. That block now begins before the
    address is told, so a Ctrl+C at that moment stops it as any other: "parando.", exit 0."""
    with _served(tmp_path, _CTRL_C_AT_ONCE) as proc:
        assert _ended(proc, WAIT) == 0
        out = proc.stdout.read()
        assert "parando." in out and "interrompido" not in out


def test_rebuilding_again_and_again_keeps_the_memory_flat(tmp_path):
    # league serve rebuilds at every save for hours. Each build leaves a few reference cycles (Jinja2's
    # environment); with the loaded content frozen for the collector during builds, its full pass — the
    # only one that frees them — never came in 30 rebuilds of one season (+0.3 MB each). The server runs
    # it after every rebuild: the live objects stay where they were (before: ~300–400 more a rebuild here).
    import gc
    content = copy_base(tmp_path / "src")
    srv = DevServer(content, tmp_path / "site", port=0, echo=lambda s: None)
    counts = []
    for i in range(6):
        (content / STAGE).write_text((content / STAGE).read_text(encoding="utf-8") + f"\n# {i}\n",
                                     encoding="utf-8")
        assert srv.rebuild()
        counts.append(len(gc.get_objects()))
    growth = [b - a for a, b in zip(counts[1:], counts[2:])]
    assert max(growth) < 100, (counts, growth)


def test_each_build_gets_a_progress_bar_of_its_own_ended_before_the_summary(tmp_path):
    # league serve on a terminal: every build (the first one of a large archive takes seconds) is handed
    # a fresh bar, ended before the server prints the build's outcome, also when the content has errors
    content = copy_base(tmp_path / "src")
    events = []

    class Bar:
        def __init__(self):
            self.n = len([e for e in events if e[0] == "new"])
            events.append(("new", self.n))

        def __call__(self, phase, done, total):
            events.append(("step", self.n, phase))

        def close(self):
            events.append(("close", self.n))
    srv = DevServer(content, tmp_path / "site", port=0,
                    echo=lambda s: events.append(("echo", s.split(" ")[0])), progress=Bar)
    assert srv.rebuild()
    edit(content / STAGE, "date: 2026-03-14", "date: 2026-02-30")
    assert not srv.rebuild()
    kinds = [e[0] for e in events]
    assert kinds.count("new") == 2 and kinds.count("close") == 2
    for n in (0, 1):
        mine = [i for i, e in enumerate(events) if e[:2] in (("new", n), ("close", n)) or e[:2] == ("step", n)]
        assert events[mine[0]] == ("new", n) and events[mine[-1]] == ("close", n)
        # nothing of the server's is printed while the bar is drawn
        assert not any(events[i][0] == "echo" for i in range(mine[0], mine[-1]))
    # the first build drew its pages (a cold build of the demo); the second failed while reading
    assert ("step", 0, "gerando páginas") in events
    assert not any(e[:2] == ("step", 1) and e[2] == "gerando páginas" for e in events)
    assert events[-1][0] == "echo" and events[-1][1] == "1"   # "1 erro(s); …", after the bar's end


# ---------------------------------------------------------------- the editing loop (issue 35, item 5)

def test_a_save_is_heard_by_the_open_page_as_reload_with_the_new_version(server):
    page = Events(server)
    try:
        assert page.status == 200 and page.headers["content-type"] == "text/event-stream; charset=utf-8"
        assert page.headers["cache-control"] == "no-store"
        assert page.next() == ("reload", {"version": 1})   # the version now, at once: the page has it
        assert page.retry == 1000                             # a restarted server is found again soon
        edit(server.content / "clubs.yaml", "aptru: {name: APTRU,", "aptru: {name: APTRU Renomeada,")
        start = time.monotonic()
        assert page.next() == ("reload", {"version": 2})
        heard = time.monotonic() - start
        assert heard < HEAR
        # by then the new site is there to be fetched
        status, body = get(f"http://127.0.0.1:{server.port}/clubes/aptru/")
        assert status == 200 and "APTRU Renomeada" in body and 'data-version="2"' in body
        assert page.quiet(0.5)                                # one save, one rebuild
        (line,) = [line for line in server.lines if line.startswith("mudou: ")]
        assert line.endswith("/content/clubs.yaml; reconstruindo…")
    finally:
        page.close()


def test_a_content_error_is_heard_as_errors_and_the_page_points_at_the_file_and_line(server):
    page = Events(server)
    try:
        assert page.next() == ("reload", {"version": 1})
        edit(server.content / STAGE, "host: aptru", 'host: "<b>aptru</b>"')
        assert page.next() == ("errors", {"version": 2, "errors": 1})
        status, body = get(server.url)
        assert status == 500 and 'data-version="2"' in body
        assert ("<code>content/seasons/2026/truco/etapa-1.yaml:3:7</code> id inválido em host: recebido "
                "&quot;&lt;b&gt;aptru&lt;/b&gt;&quot; (texto)") in body
        assert_not_at_league(body)
        status, previous = get(server.url + "?__league=anterior")          # the last good site, one click away
        assert status == 200 and "O conteúdo tem" not in previous
        edit(server.content / STAGE, 'host: "<b>aptru</b>"', "host: aptru")
        assert page.next() == ("reload", {"version": 3})
        assert get(server.url)[0] == 200
    finally:
        page.close()


def test_the_page_listens_with_event_source_and_never_polls(server):
    status, js = get(f"http://127.0.0.1:{server.port}/__league/reload.js")
    assert status == 200
    assert 'new EventSource("/__league/events")' in js
    assert 'addEventListener("reload"' in js and 'addEventListener("errors"' in js
    assert "setTimeout" not in js and "setInterval" not in js and "fetch(" not in js
    assert "visibilitychange" in js           # a hidden tab gives its connection back
    # a script file of the server's own, never inline: the site's CSP (script-src 'self') would allow it too
    status, body = get(server.url)
    assert re.findall(r"<script[^>]*>", body)[-1] == '<script src="/__league/reload.js" data-version="1">'


def test_swap_hidden_and_backup_files_rebuild_nothing_and_one_save_of_two_files_rebuilds_once(server):
    page = Events(server)
    try:
        assert page.next() == ("reload", {"version": 1})
        stage = server.content / STAGE
        (stage.parent / ".etapa-1.yaml.swp").write_text("vim", encoding="utf-8")
        (stage.parent / "etapa-1.yaml~").write_text("backup", encoding="utf-8")
        (server.content / ".git").mkdir()
        (server.content / ".git" / "index").write_text("git", encoding="utf-8")
        (stage.parent / "4913").write_text("", encoding="utf-8")       # vim's test of the folder: made, removed
        (stage.parent / "4913").unlink()
        assert page.quiet(1.5)
        edit(server.content / "clubs.yaml", "aptru: {name: APTRU,", "aptru: {name: APTRU Renomeada,")
        edit(stage, "date: 2026-03-14", "date: 2026-03-15")
        assert page.next() == ("reload", {"version": 2})
        assert page.quiet(1.0)
        changed_lines = [line for line in server.lines if line.startswith("mudou: ")]
        assert len(changed_lines) == 1 and "clubs.yaml" in changed_lines[0] and "etapa-1.yaml" in changed_lines[0]
    finally:
        page.close()


def test_a_folder_moved_in_is_seen(server, tmp_path):
    page = Events(server)
    try:
        assert page.next() == ("reload", {"version": 1})
        news = tmp_path / "noticia"
        news.mkdir()
        (news / "2026-03-20-nova.md").write_text("---\ntitle: Nova notícia\ndate: 2026-03-20\n---\nTexto.\n",
                                                 encoding="utf-8")
        os.rename(news, server.content / "news" / "mais")   # one event: the folder (its file says nothing)
        assert page.next()[0] in ("reload", "errors")
    finally:
        page.close()


def test_event_streams_are_bounded_kept_alive_and_freed_when_the_page_goes(server, monkeypatch):
    import league.cli.serve.live
    monkeypatch.setattr(league.cli.serve.live, "MAX_LISTENERS", 2)
    server.live.heartbeat = 0.1
    first, second = Events(server), Events(server)
    try:
        assert first.next()[0] == "reload" and second.next()[0] == "reload"
        status, text = get(f"http://127.0.0.1:{server.port}/__league/events")
        assert status == 503 and "feche algumas abas" in text
        time.sleep(0.5)
        assert first.comments >= 2                         # the heartbeat
        first.close()                                      # a tab closed: its stream ends at the next heartbeat
        deadline = time.monotonic() + HEAR
        while server.live.listeners > 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.live.listeners == 1
        third = Events(server)
        assert third.status == 200 and third.next() == ("reload", {"version": 1})
        third.close()
    finally:
        first.close()
        second.close()


def test_stop_ends_the_streams_and_the_watcher_at_once(tmp_path):
    content = copy_base(tmp_path / "src")
    srv = DevServer(content, tmp_path / "site", port=0, echo=lambda s: None)
    srv.start()
    page = Events(srv)
    try:
        assert page.next() == ("reload", {"version": 1})
        start = time.monotonic()
        srv.stop()
        assert page.next(wait=5) is None                   # the stream ended
        assert time.monotonic() - start < 2
        assert not any(t.is_alive() for t in srv.threads)
    finally:
        page.close()
        srv.stop()


def test_an_unexpected_failure_points_at_the_content_being_processed_not_at_league(tmp_path, monkeypatch):
    # a bug met while ranking one stage: the page names that stage's file and line, never league/*.py
    import league.games.truco.ranking
    content = copy_base(tmp_path / "src")
    real = league.games.truco.ranking.group_tables

    def buggy(stage):
        if stage.id == "etapa-1":
            return {}["grupo"]
        return real(stage)
    monkeypatch.setattr(league.games.truco.ranking, "group_tables", buggy)
    lines: list[str] = []
    srv = DevServer(content, tmp_path / "site", port=0, echo=lines.append)
    assert not srv.rebuild()
    (error,) = srv.state.errors
    assert error.mark.path == "content/seasons/2026/truco/etapa-1.yaml" and error.mark.line >= 1
    assert error.message == "erro interno do league ao processar este conteúdo: KeyError: 'grupo'"
    page = error_page(srv.state)
    assert f"<code>{error.mark}</code>" in page
    assert_not_at_league(page)
    assert "Traceback" not in "\n".join(lines)


def test_an_unexpected_failure_with_no_place_says_erro_interno_without_a_path_of_league():
    # a worker's failure comes back as one RuntimeError carrying the worker's traceback in its message
    try:
        raise RuntimeError("worker failed: KeyError('x')\nTraceback (most recent call last):\n"
                           '  File "/usr/lib/python3/site-packages/league/site/render.py", line 10, in page\n')
    except RuntimeError as exc:
        d = _unexpected(exc, Path("content"), Path("site"))
    assert str(d.mark) == "erro interno"
    assert d.message == "erro inesperado na construção do site: RuntimeError: worker failed: KeyError('x')"
    assert "league --debug serve" in d.hint
    page = error_page(State(1, [d]))
    assert_not_at_league(page)


def test_an_out_folder_the_build_refuses_is_named_as_such_not_as_a_bug(tmp_path):
    from league.site.writer import OutError
    d = _unexpected(OutError("--out site: a pasta não está vazia e não foi o league que a escreveu"),
                    Path("content"), Path("site"))
    assert str(d.mark) == "site" and d.message.startswith("--out site: a pasta não está vazia") and d.hint is None


def test_polling_on_request_and_when_the_system_refuses_to_watch(tmp_path, monkeypatch):
    # --polling (a network folder, Windows files under WSL: no events come), and the fallback when the
    # system refuses to watch (inotify's limit of watches): either way a save is still heard
    import watchfiles
    real = watchfiles.watch
    asked = []

    def refusing(*paths, force_polling=None, **kwargs):
        asked.append(force_polling)
        if not force_polling:
            raise OSError("OS file watch limit reached")
        return real(*paths, force_polling=force_polling, **kwargs)
    monkeypatch.setattr(watchfiles, "watch", refusing)
    for polling in (True, False):
        content = copy_base(tmp_path / f"src-{polling}")
        lines: list[str] = []
        srv = DevServer(content, tmp_path / f"site-{polling}", port=0, echo=lines.append, polling=polling)
        srv.start()
        page = Events(srv)
        try:
            assert page.next() == ("reload", {"version": 1})
            edit(content / "clubs.yaml", "aptru: {name: APTRU,", "aptru: {name: APTRU Renomeada,")
            assert page.next() == ("reload", {"version": 2})
        finally:
            page.close()
            srv.stop()
        warned = [line for line in lines if line.startswith("aviso: o sistema não avisa")]
        assert len(warned) == (0 if polling else 1)
        assert "OS file watch limit reached" in "".join(warned) or polling
    assert asked[0] is True and asked[1:3] == [None, True]


NODE_HARNESS = r"""
const vm = require("vm");
const code = require("fs").readFileSync(0, "utf8");
const log = [], doc = {}, win = {}, sources = [];
class FakeEventSource {
  constructor(url) { this.url = url; this.on = {}; sources.push(this); log.push("open " + url); }
  addEventListener(name, f) { this.on[name] = f; }
  close() { log.push("close"); }
  emit(name, data) { if (this.on[name]) this.on[name]({data: JSON.stringify(data)}); }
}
const document = {hidden: false, currentScript: {getAttribute: (n) => (n === "data-version" ? "3" : null)},
                  addEventListener: (n, f) => { doc[n] = f; }};
const window = {EventSource: FakeEventSource, addEventListener: (n, f) => { win[n] = f; }};
const location = {reload: () => log.push("reload")};
// no setTimeout, setInterval nor fetch here: a script that polls fails
vm.runInNewContext(code, {document, window, location, EventSource: FakeEventSource, JSON, String});
const last = () => sources[sources.length - 1];
last().emit("reload", {version: 3});                     // the version the page has: nothing
log.push("|");
document.hidden = true; doc.visibilitychange();          // a hidden tab gives its connection back
document.hidden = false; doc.visibilitychange();         // and listens again when shown
last().emit("errors", {version: 4, errors: 2});          // a build with errors: the page shows them
console.log(JSON.stringify(log));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is missing")
def test_the_reload_script_in_a_javascript_engine(server):
    # the very script the server sends, run by node against a fake page and EventSource
    js = get(f"http://127.0.0.1:{server.port}/__league/reload.js")[1]
    run = subprocess.run(["node", "-e", NODE_HARNESS], input=js, capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == ["open /__league/events", "|", "close", "open /__league/events",
                                      "close", "reload"]
