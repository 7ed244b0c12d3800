"""An unexpected internal error in any `league` command (a bug) exits 3 — not 1, which means content errors —
with one line in Portuguese asking to report it, and the traceback only with `league --debug` or
LEAGUE_DEBUG=1; Ctrl+C exits 130 with a short message; click's usage errors stay exit 2 (issue 33, item 8)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import league.engine.build
from league.cli import main
from league.content.diagnostics import Diagnostic, LeagueError, SourceMark

ROOT = Path(__file__).resolve().parent.parent
LINE = ("erro interno do league: ValueError: estado impossível 42 segunda linha; por favor, relate o problema com "
        "a saída de --debug (league --debug {cmd} …).")


def _boom(*args, **kwargs):
    raise ValueError("estado impossível 42\nsegunda linha")


def _interrupt(*args, **kwargs):
    raise KeyboardInterrupt


@pytest.mark.parametrize("cmd, target", [("check", "check"), ("build", "build")])
def test_an_internal_error_exits_3_with_one_line(monkeypatch, tmp_path, cmd, target):
    monkeypatch.setattr(league.engine.build, target, _boom)
    monkeypatch.delenv("LEAGUE_DEBUG", raising=False)
    res = CliRunner().invoke(main, [cmd, "--content", str(ROOT / "content")]
                             + (["--out", str(tmp_path / "site")] if cmd == "build" else []))
    assert res.exit_code == 3, res.output
    assert res.output == LINE.format(cmd=cmd) + "\n"
    assert "Traceback" not in res.output


@pytest.mark.parametrize("args, env", [(["--debug", "check"], {}), (["check"], {"LEAGUE_DEBUG": "1"})])
def test_the_traceback_only_with_debug(monkeypatch, args, env):
    monkeypatch.setattr(league.engine.build, "check", _boom)
    res = CliRunner().invoke(main, [*args, "--content", str(ROOT / "content")], env=env)
    assert res.exit_code == 3
    lines = res.output.splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert "in _boom" in res.output and "ValueError: estado impossível 42" in res.output
    assert lines[-1] == LINE.format(cmd="check")


def test_leaguedebug_zero_is_off(monkeypatch):
    monkeypatch.setattr(league.engine.build, "check", _boom)
    res = CliRunner().invoke(main, ["check"], env={"LEAGUE_DEBUG": "0"})
    assert res.exit_code == 3 and "Traceback" not in res.output


def test_ctrl_c_exits_130_without_a_traceback(monkeypatch):
    monkeypatch.setattr(league.engine.build, "check", _interrupt)
    res = CliRunner().invoke(main, ["check", "--content", str(ROOT / "content")])
    assert res.exit_code == 130
    assert res.output == "interrompido (Ctrl+C).\n"


def test_content_errors_and_usage_errors_keep_their_status(monkeypatch, tmp_path):
    res = CliRunner().invoke(main, ["chek"])
    assert res.exit_code == 2 and "erro: o comando 'chek' não existe." in res.output
    res = CliRunner().invoke(main, ["check", "--format", "xml"])
    assert res.exit_code == 2
    res = CliRunner().invoke(main, ["--debug", "check", "--content", str(tmp_path / "nada")])
    assert res.exit_code in (1, 2) and "Traceback" not in res.output

    # a LeagueError that a command lets through is a content error: listed, exit 1
    def content_error(*args, **kwargs):
        raise LeagueError([Diagnostic(SourceMark("content/x.yaml", 2, 3), "valor inválido")])
    monkeypatch.setattr(league.engine.build, "check", content_error)
    res = CliRunner().invoke(main, ["check", "--format", "json"])
    assert res.exit_code == 1 and '"message": "valor inválido"' in res.output


SCRIPT = """
import sys, league.engine.build
def fail(*a, **k):
    raise {exc}
league.engine.build.check = fail
sys.argv = ["league", *sys.argv[1:]]
from league.cli import run
run()
"""


@pytest.mark.parametrize("exc, status, last", [
    ("RuntimeError('falhou')", 3, "erro interno do league: RuntimeError: falhou; por favor, relate o problema com "
                                  "a saída de --debug (league --debug check …)."),
    ("KeyboardInterrupt()", 130, "interrompido (Ctrl+C)."),
])
def test_the_real_command(tmp_path, exc, status, last):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("LEAGUE_DEBUG", None)
    proc = subprocess.run([sys.executable, "-c", SCRIPT.format(exc=exc), "check", "--content", str(ROOT / "content")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == status, proc.stderr
    assert proc.stderr.splitlines() == [last]
    assert proc.stdout == ""
