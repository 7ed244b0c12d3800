"""Builds small content trees for tests: league.yaml, clubs, players and stage files from plain text."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

LEAGUE = """\
name: Federação de Teste
short_name: FT
base_url: https://example.org/
"""


def cache_entries(cache: Path):
    """(path, key, value) of every entry of the build cache folder `cache` that reads back (league.engine.cache)."""
    from league.engine.cache import _open
    from league.engine.codec import CodecError
    for path in sorted(Path(cache).rglob("*.entry")):
        try:
            yield path, path.stem, _open(path.stem, path.read_bytes())
        except CodecError:
            continue


def team_players(team: str, n: int = 5) -> list[tuple[str, str]]:
    return [(f"{team}-{i}a", f"{team}-{i}b") for i in range(1, n + 1)]


def write_content(root: Path, stages: dict[str, str], clubs: list[str] | None = None, league: str = LEAGUE,
                  season: str | None = None, year: str = "2026", extra_players: list[str] = (),
                  pairs_per_team: int = 5) -> Path:
    """A content tree whose clubs each field one team with squad pairs [club-ia, club-ib]."""
    content = root / "content"
    (content / "seasons" / year / "truco").mkdir(parents=True, exist_ok=True)
    (content / "league.yaml").write_text(league, encoding="utf-8")
    clubs = clubs or []
    (content / "clubs.yaml").write_text(
        "".join(f"{c}: {{name: Clube {c.upper()}, city: Curitiba}}\n" for c in clubs) or "{}\n", encoding="utf-8")
    players = []
    for c in clubs:
        for a, b in team_players(c, pairs_per_team):
            players += [a, b]
    players += list(extra_players)
    (content / "players.yaml").write_text(
        "".join(f"{p}: {{name: Jogador {p}}}\n" for p in players) or "{}\n", encoding="utf-8")
    if season is not None:
        (content / "seasons" / year / "season.yaml").write_text(season, encoding="utf-8")
    for sid, text in stages.items():
        (content / "seasons" / year / "truco" / f"{sid}.yaml").write_text(textwrap.dedent(text), encoding="utf-8")
    return content


def squad(team: str, n: int = 5) -> str:
    return "{pairs: [" + ", ".join(f"[{a}, {b}]" for a, b in team_players(team, n)) + "]}"


def boards_for(home_wins: int, n: int = 5, two_zero: bool = True) -> str:
    """Board lines giving the home team `home_wins` boards out of n (2x0 wins 12-5 12-5 or 2x1)."""
    win = '"12-5 12-5"' if two_zero else '"12-5 5-12 12-5"'
    lose = '"5-12 5-12"' if two_zero else '"5-12 12-5 5-12"'
    return "[" + ", ".join([win] * home_wins + [lose] * (n - home_wins)) + "]"


def two_team_stage(name: str = "1ª Etapa", home_boards: int = 3) -> str:
    """The smallest final stage: one group, aa against bb, aa winning `home_boards` of the 5 boards."""
    return f"""\
    name: {name}
    date: 2026-03-14
    status: final
    teams: {{aa: {squad("aa")}, bb: {squad("bb")}}}
    phases:
      - name: Fase de grupos
        groups:
          Grupo A:
            teams: [aa, bb]
            matches:
              - {{home: aa, away: bb, boards: {boards_for(home_boards)}}}
    """


def synth(out: Path, *args: str) -> Path:
    """bench/synth.py's content tree written to `out` (args: "--seasons", "3", …); returns `out`."""
    subprocess.run([sys.executable, str(ROOT / "bench" / "synth.py"), *args, "--out", str(out)],
                   check=True, capture_output=True)
    return out


def bench_script(name: str):
    """A script of bench/ (stdlib, no .py suffix: bench/run, bench/where, bench/floors) loaded as a module."""
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.SourceFileLoader(f"bench_{name}", str(ROOT / "bench" / name))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module
