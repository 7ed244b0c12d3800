"""`league build` / `league serve` start again with glibc's malloc asking for transparent huge pages
(league.cli._hugepage_argv), only when that can help and nobody said otherwise."""
import sys

from league.cli import _hugepage_argv

MADVISE = "always [madvise] never\n"


def test_build_is_started_again_as_the_same_script(tmp_path):
    script = tmp_path / "league"
    script.write_text("#!/usr/bin/env python\n")
    # the same script and arguments, under this Python: only the environment differs
    assert _hugepage_argv([str(script), "build", "--out", "x"], {}, MADVISE) == \
        [sys.executable, str(script), "build", "--out", "x"]
    assert _hugepage_argv([str(script), "serve"], {}, "[always] madvise never") == \
        [sys.executable, str(script), "serve"]


def test_python_dash_m_league_is_started_again_as_a_module(tmp_path):
    main = tmp_path / "__main__.py"
    main.write_text("")
    # run as a script its folder (league/, which holds locale/) would come first on sys.path
    assert _hugepage_argv([str(main), "build"], {}, MADVISE) == [sys.executable, "-m", "league", "build"]


def test_not_started_again_when_it_cannot_help_or_was_set(tmp_path):
    script = tmp_path / "league"
    script.write_text("")
    s = str(script)
    assert _hugepage_argv([s, "build"], {"GLIBC_TUNABLES": "glibc.malloc.arena_max=2"}, MADVISE) is None
    assert _hugepage_argv([s, "build"], {}, "always madvise [never]") is None   # THP off
    assert _hugepage_argv([s, "build"], {}, None) is None                       # not Linux's file
    assert _hugepage_argv([s, "check"], {}, MADVISE) is None                   # short commands: no exec
    assert _hugepage_argv([s], {}, MADVISE) is None
    assert _hugepage_argv([str(tmp_path / "missing"), "build"], {}, MADVISE) is None
