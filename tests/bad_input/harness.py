"""Runs `league build` on a broken content tree in a forked child with a time limit and a memory cap, so that
a loader that hangs or allocates without bound fails its test instead of taking the test run down with it.

The child runs the real command line (click.testing.CliRunner, `build --content X --out Y`) and sends back the
exit status, the output and any unexpected exception. Where fork is not available the build runs in-process
(no cap, only the elapsed time is checked).
"""
from __future__ import annotations

import os
import pickle
import re
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

# imported here, once, so that each forked child starts with the whole build already loaded
import league.site.api  # noqa: F401
import league.engine.build  # noqa: F401
import league.cli  # noqa: F401
import league.engine.loader  # noqa: F401
import league.games.truco.reading  # noqa: F401
import league.content.pages  # noqa: F401
import league.games.quatrilho.championship  # noqa: F401
import league.site.render  # noqa: F401

BASE = Path(__file__).parent / "base"
MEMORY_HEADROOM = 768 * 1024 * 1024   # bytes of address space the child may add to what the test process uses
TIME_LIMIT = 15.0                      # seconds before the child is killed (a case takes well under one)

DIAG = re.compile(r"^(?P<file>\S+?)(?::(?P<line>\d+):(?P<col>\d+))?: (?P<level>erro|aviso): (?P<message>.*)$")


@dataclass
class Outcome:
    exit_code: int | None
    output: str
    error: str | None        # traceback of an unexpected exception, or why the child died
    seconds: float

    def diagnostics(self, level: str = "erro") -> list[tuple[str, int, int, str]]:
        """(file, line, col, message) of each diagnostic the command printed, in printed order."""
        out = []
        for line in self.output.splitlines():
            m = DIAG.match(line)
            if m and m["level"] == level:
                out.append((m["file"], int(m["line"] or 0), int(m["col"] or 0), m["message"]))
        return out

    def hints(self) -> list[str]:
        return [line.strip()[len("sugestão: "):] for line in self.output.splitlines()
                if line.startswith("    sugestão: ")]


def copy_base(dest: Path) -> Path:
    """A fresh copy of the valid base tree at dest/content."""
    content = dest / "content"
    shutil.copytree(BASE, content, symlinks=True)
    return content


def _vm_size() -> int:
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[0]) * resource.getpagesize()
    except OSError:  # pragma: no cover - not Linux
        return 0


def _invoke(args: list[str]) -> tuple[int | None, str, str | None]:
    from click.testing import CliRunner

    from league.cli import main
    res = CliRunner().invoke(main, args, catch_exceptions=True)
    error = None
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        error = "".join(traceback.format_exception(*res.exc_info))
    elif res.exit_code == 3:   # league's exit status for an internal error: its one line says which
        error = res.output
    return res.exit_code, res.output, error


def run_build(content: Path, out: Path, time_limit: float = TIME_LIMIT) -> Outcome:
    args = ["build", "--content", str(content), "--out", str(out)]
    start = time.monotonic()
    if not hasattr(os, "fork"):  # pragma: no cover - Windows
        code, output, error = _invoke(args)
        return Outcome(code, output, error, time.monotonic() - start)
    fd, result_path = tempfile.mkstemp(prefix="league-bad-input-", suffix=".pickle")
    os.close(fd)
    limit = _vm_size() + MEMORY_HEADROOM
    pid = os.fork()
    if pid == 0:  # child: cap the address space, run the command, report, leave without cleanup
        status = 0
        try:
            if limit > MEMORY_HEADROOM:
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            try:
                result = _invoke(args)
            except MemoryError:
                result = (None, "", "MemoryError: o limite de memória do teste foi atingido")
            with open(result_path, "wb") as fh:
                pickle.dump(result, fh)
        except BaseException:  # noqa: BLE001 - anything here must still end the child
            traceback.print_exc()
            status = 3
        finally:
            # os._exit skips atexit, where a real `league build` waits for its search scratch folder
            # (/dev/shm/league-search-*) to be deleted: wait for it here, or it stays until a reboot
            search = sys.modules.get("league.site.search")
            if search is not None:
                search._clean_up()
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(status)
    try:
        deadline = start + time_limit
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return Outcome(None, "", f"o build não terminou em {time_limit:.0f} s", time.monotonic() - start)
            time.sleep(0.005)
        seconds = time.monotonic() - start
        if os.WIFSIGNALED(status):
            return Outcome(None, "", f"o processo do build morreu com o sinal {os.WTERMSIG(status)}", seconds)
        try:
            with open(result_path, "rb") as fh:
                code, output, error = pickle.load(fh)
        except (OSError, EOFError, pickle.UnpicklingError):
            return Outcome(None, "", f"o processo do build saiu com {os.WEXITSTATUS(status)} sem resultado", seconds)
        return Outcome(code, output, error, seconds)
    finally:
        try:
            os.unlink(result_path)
        except OSError:
            pass


def previous_site(out: Path) -> None:
    """A stand-in for the site of the last good build."""
    (out / "api" / "2026" / "truco").mkdir(parents=True)  # parents: out's folder too
    (out / "index.html").write_text("<!doctype html><title>site anterior</title><p>site anterior</p>\n",
                                    encoding="utf-8")
    (out / "api" / "2026" / "truco" / "ranking.json").write_text('{"season": "2026"}\n', encoding="utf-8")
    (out / "static").mkdir()
    (out / "static" / "style.css").write_bytes(b"body{margin:0}\n")
    import json   # the manifest a build of league leaves in its site (league/site/writer.py): this site is league's
    files = {p.relative_to(out).as_posix(): p.stat().st_size for p in sorted(out.rglob("*")) if p.is_file()}
    (out / ".league-build.json").write_text(json.dumps({"generator": "league", "inputs": "", "files": files}),
                                            encoding="utf-8")


def snapshot(root: Path) -> dict[str, tuple]:
    """Every path under root (the folder holding site/): bytes (None for a directory) and mtime. Anything new
    beside the site, such as a leftover temporary directory, shows too."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in sorted(dirnames) + sorted(filenames):
            p = Path(dirpath) / name
            out[p.relative_to(root).as_posix()] = (None if p.is_dir() else p.read_bytes(), p.lstat().st_mtime_ns)
    return out
