"""Atomic builds with a real kill: a `league build` process killed with SIGKILL while it writes leaves the
previous site/ byte-identical; the next build cleans what the killed one left and equals an uninterrupted build.

LEAGUE_WRITE_DELAY (league/writer.py) makes the writer wait after each file it writes, so the test can catch
the process mid-write every time instead of racing it.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from league.cli import main
from tests.bad_input.harness import copy_base, snapshot

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


def build(content: Path, out: Path) -> None:
    res = CliRunner().invoke(main, ["build", "--content", str(content), "--out", str(out)])
    assert res.exit_code == 0, res.output


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def temp_dirs(out: Path) -> list[Path]:
    return sorted(p for p in out.parent.iterdir() if p.name.startswith(f".{out.name}."))


def kill_mid_write(content: Path, out: Path, after_files: int = 3, timeout: float = 60.0) -> Path:
    """Start a real build, SIGKILL it once its new site holds `after_files` files; the half-written folder."""
    env = dict(os.environ, LEAGUE_WRITE_DELAY="0.05", PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "league", "build", "--content", str(content), "--out", str(out)],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + timeout
    try:
        while True:
            assert proc.poll() is None, "o build terminou antes de ser interrompido: " + proc.stderr.read().decode()
            assert time.monotonic() < deadline, "o build não começou a escrever a tempo"
            partial = [p for p in temp_dirs(out) if ".new-" in p.name]
            if partial and sum(1 for p in partial[0].rglob("*") if p.is_file()) >= after_files:
                break
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:  # pragma: no cover - only if an assertion fired above
            proc.kill()
            proc.wait()
        proc.stderr.close()
    assert proc.returncode == -signal.SIGKILL
    return partial[0]


def test_killed_build_leaves_previous_site_and_next_build_recovers(tmp_path):
    content = copy_base(tmp_path / "src")
    out = tmp_path / "out" / "site"
    build(content, out)
    before = snapshot(out.parent)
    old_files = files(out)

    # every page shows the federation's name: the killed build has all of them to rewrite
    league = content / "league.yaml"
    league.write_text(league.read_text(encoding="utf-8").replace("Federação de Teste", "Federação Renomeada"),
                      encoding="utf-8")
    partial = kill_mid_write(content, out)

    assert partial.is_dir()                                    # really killed mid-write
    after = {k: v for k, v in snapshot(out.parent).items() if not k.startswith(partial.name)}
    assert after == before                                     # site/ byte-identical, same mtimes
    assert files(out) == old_files

    build(content, out)                                        # the next build succeeds …
    assert temp_dirs(out) == []                                # … and removes what the killed one left
    html = [b for rel, b in files(out).items() if rel.endswith(".html")]
    assert html and all("Federação Renomeada".encode() in b for b in html if b"<title" in b)
    fresh = tmp_path / "fresh" / "site"
    build(content, fresh)                                      # and equals an uninterrupted build
    assert files(out) == files(fresh)


def test_killed_first_build_leaves_no_site(tmp_path):
    content = copy_base(tmp_path / "src")
    out = tmp_path / "out" / "site"
    out.parent.mkdir()
    kill_mid_write(content, out)
    assert not out.exists()
    build(content, out)
    assert temp_dirs(out) == []
    assert (out / "index.html").is_file()


def test_build_killed_while_applying_is_finished_by_the_next_one_which_trusts_no_old_record(tmp_path):
    """A build that dies after staging, while moving its files into site/ (LEAGUE_TEST_CRASH_APPLY makes it
    exit after N files, like a kill), leaves a committed staging folder: the next build applies it first.
    That site is the killed build's, which no record describes; so even when the content is back to what
    the last *recorded* build saw, the next build must not keep pages by the old record's keys."""
    content = copy_base(tmp_path / "src")
    out = tmp_path / "out" / "site"
    cache = tmp_path / "cache"
    env = dict(os.environ, PYTHONPATH=str(ROOT), LEAGUE_CACHE_DIR=str(cache))

    def run(extra=None):
        return subprocess.run([sys.executable, "-m", "league", "build", "--content", str(content), "--out",
                               str(out)], cwd=ROOT, env={**env, **(extra or {})}, capture_output=True, text=True)
    assert run().returncode == 0
    league = content / "league.yaml"
    original = league.read_text(encoding="utf-8")
    league.write_text(original.replace("Federação de Teste", "Federação Renomeada"), encoding="utf-8")
    killed = run({"LEAGUE_TEST_CRASH_APPLY": "5"})
    assert killed.returncode == 137, killed.stderr
    assert any(".new-" in p.name for p in temp_dirs(out))       # committed staging left behind
    league.write_text(original, encoding="utf-8")               # back to the recorded build's content
    assert run().returncode == 0
    assert temp_dirs(out) == []
    fresh = tmp_path / "fresh" / "site"
    build(content, fresh)
    assert files(out) == files(fresh)
    assert not any(b"Federa\xc3\xa7\xc3\xa3o Renomeada" in b for b in files(out).values())
