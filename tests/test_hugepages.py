"""`league build` / `league serve` start again with glibc's malloc asking for transparent huge pages
(league.cli._hugepage_argv), only when that can help and nobody said otherwise."""
import sys

from league.cli import _hugepage_argv

def madvise():
    return "always [madvise] never\n"


def test_build_is_started_again_as_the_same_script(tmp_path):
    script = tmp_path / "league"
    script.write_text("#!/usr/bin/env python\n")
    # the same script and arguments, under this Python: only the environment differs
    assert _hugepage_argv([str(script), "build", "--out", "x"], {}, madvise) == \
        [sys.executable, str(script), "build", "--out", "x"]
    assert _hugepage_argv([str(script), "serve"], {}, lambda: "[always] madvise never") == \
        [sys.executable, str(script), "serve"]


def test_python_dash_m_league_is_started_again_as_a_module(tmp_path):
    main = tmp_path / "__main__.py"
    main.write_text("")
    # run as a script its folder (league/, which holds locale/) would come first on sys.path
    assert _hugepage_argv([str(main), "build"], {}, madvise) == [sys.executable, "-m", "league", "build"]


def test_not_started_again_when_it_cannot_help_or_was_set(tmp_path):
    script = tmp_path / "league"
    script.write_text("")
    s = str(script)
    assert _hugepage_argv([s, "build"], {"GLIBC_TUNABLES": "glibc.malloc.arena_max=2"}, madvise) is None
    assert _hugepage_argv([s, "build"], {}, lambda: "always madvise [never]") is None   # THP off
    assert _hugepage_argv([s, "build"], {}, lambda: None) is None                       # not Linux's file
    assert _hugepage_argv([s, "check"], {}, madvise) is None                   # short commands: no exec
    assert _hugepage_argv([s], {}, madvise) is None
    assert _hugepage_argv([str(tmp_path / "missing"), "build"], {}, madvise) is None


def test_the_kernels_mode_is_read_only_for_build_and_serve(tmp_path):
    script = tmp_path / "league"
    script.write_text("")

    def unread():
        raise AssertionError("the THP mode was read for a command that is never started again")
    assert _hugepage_argv([str(script), "check"], {}, unread) is None
