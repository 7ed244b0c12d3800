"""The progress bar of `league build` on a terminal (issue 6: a build longer than ~2 s shows one): a bar for
the files being read, then one for the pages, each drawn by the build's own process only, moving forward to
100 %, then the next phase's line.

Until this test, a forked render worker inherited the bar and drew its own copy over it: on the 20-season
archive the terminal showed two bars taking turns (17 %, 11 %, 19 %, 13 % …), and the next phase
("escrevendo", with no total) moved the finished bar back to 0 % with an ETA of three hours."""
from __future__ import annotations

import os
import re
import threading
from pathlib import Path

import pytest

from league.engine.build import LOADING, build, check
from league.cli import _Progress
from league.engine.rendering import workers_for
from tests.util import synth

ROOT = Path(__file__).resolve().parent.parent


class _Screen:
    """A pseudo-terminal: the build writes to its slave side (a real terminal for click, inherited by
    forked workers like any file descriptor); a thread collects everything from the master side."""

    def __init__(self):
        self.master, slave = os.openpty()
        self.file = open(slave, "w", encoding="utf-8", buffering=1)  # noqa: SIM115 - closed by done()
        self.chunks: list[bytes] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:   # EIO: every slave side closed
                return
            if not data:
                return
            self.chunks.append(data)

    def done(self) -> str:
        self.file.close()
        self.reader.join(10)
        os.close(self.master)
        return b"".join(self.chunks).decode("utf-8", "replace")


def _bars(text: str) -> list[tuple[str, int]]:
    """(label, percent) of every state of a bar drawn, in order (click redraws the line after a \\r)."""
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)   # the cursor hidden while drawing, shown again
    return [(m.group(1), int(m.group(2)))
            for m in re.finditer(r"(\w[\w ]*?)\s+\[[#-]+\]\s+\d+/\d+\s+(\d+)%", text)]


@pytest.fixture(scope="module")
def content(tmp_path_factory) -> Path:
    return synth(tmp_path_factory.mktemp("synth") / "content",
                 "--seasons", "1", "--teams", "8", "--championships", "1", "--seed", "3")


def test_a_parallel_build_draws_one_bar_that_ends_at_100_percent(content, tmp_path):
    screen = _Screen()
    progress = _Progress(file=screen.file, quiet_for=0)   # drawn from the first call (the build is short)
    try:
        report = build(content, tmp_path / "site", templates=ROOT / "league" / "templates",
                       cache_dir=tmp_path / "cache", progress=progress)
    finally:
        progress.close()
        text = screen.done()
    # 351 pages, 119 embed pages (1 season ranking, 9 clubs, 109 pairs) and their API files (bench/synth.py,
    # this seed): enough for the forked render workers, which are what drew a second bar
    assert report.pages == 351 + 119
    assert workers_for(report.pages) > 1 or os.cpu_count() == 1
    bars = _bars(text)
    assert bars, text
    # first the files being read (the 7 stage and championship files, shared out to a load worker: the
    # templates are compiled meanwhile), then the pages; each phase one bar, from 0 % to 100 %
    labels = [label for label, _ in bars]
    assert labels == sorted(labels, key=["lendo o conteúdo", "gerando páginas"].index), labels
    assert set(labels) == {"lendo o conteúdo", "gerando páginas"}, labels
    for phase in set(labels):
        percents = [p for label, p in bars if label == phase]
        assert percents == sorted(percents), (phase, percents)   # never backwards (two bars took turns)
        assert percents[0] == 0 and percents[-1] == 100, (phase, percents)
    assert re.search(r"lendo o conteúdo\s+\[#+\]\s+7/7", text), text
    # the next phase is a line of its own after the finished bar, which is not drawn again
    tail = text[text.rindex("100%"):]
    assert "escrevendo…" in tail and "%" not in tail[len("100%"):], tail


def test_the_bar_never_moves_back_and_a_later_phase_ends_it():
    class Tty(list):
        def write(self, s):
            self.append(s)

        def flush(self):
            pass

        def isatty(self):
            return True
    out = Tty()
    p = _Progress(file=out, quiet_for=0)
    p("gerando páginas", 0, 200)
    p("gerando páginas", 120, 200)
    p("gerando páginas", 80, 200)    # a late, smaller count: the bar stays at 60 %
    shown = "".join(out)
    assert "120/200" in shown and "80/200" not in shown
    assert p.bar is not None
    p("escrevendo", 0, 0)            # the next phase: the bar ends where it is, then the phase's line
    assert p.bar is None
    rest = "".join(out)[len(shown):]
    assert "escrevendo…" in rest and "0/200" not in rest and " 0%" not in rest, rest
    p("gerando páginas", 200, 200)   # an ended phase is not drawn again
    assert p.bar is None and "".join(out).count("escrevendo…") == 1


def test_a_short_build_stays_quiet():
    out = []
    p = _Progress(file=out, quiet_for=3600)
    p("gerando páginas", 0, 10)
    p("gerando páginas", 10, 10)
    p("escrevendo", 0, 0)
    p.close()
    assert out == [] and p.bar is None


def test_league_check_tells_the_files_read_and_a_warm_check_reads_none(content, tmp_path):
    # the 6 stages and 1 championship of the synthetic season, none in the (new) cache: counted from 0 to 7,
    # never backwards, in this process; once they are in the cache there is nothing to read and no bar
    calls = []
    check(content, cache_dir=tmp_path / "cache", progress=lambda *a: calls.append(a))
    assert calls[0] == (LOADING, 0, 7) and calls[-1] == (LOADING, 7, 7), calls
    assert {(phase, total) for phase, _, total in calls} == {(LOADING, 7)}
    done = [d for _, d, _ in calls]
    assert done == sorted(done)
    again = []
    check(content, cache_dir=tmp_path / "cache", progress=lambda *a: again.append(a))
    assert again == []
