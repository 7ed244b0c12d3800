"""The synthetic archive generator (bench/synth.py) writes deterministic, valid content trees."""
from __future__ import annotations

import datetime as dt
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
SYNTH = ROOT / "bench" / "synth.py"
SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
ARGS = ["--seasons", "2", "--teams", "8", "--championships", "1", "--seed", "7"]


def run_synth(out: Path, args=ARGS) -> None:
    subprocess.run([sys.executable, str(SYNTH), *args, "--out", str(out)], check=True,
                   capture_output=True)


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("synth") / "content"
    run_synth(out)
    return out


# ---------------------------------------------------------------------------------------------
# Checks, usable on any generated tree (also by hand on the big archive)
# ---------------------------------------------------------------------------------------------

def board_result(line) -> tuple[int, int]:
    """Games won (home, away) of a board string; raises AssertionError if the line breaks the rules:
    2 or 3 games, the winner of each game has 12 and the loser 0-11, exactly one side wins 2."""
    tokens = line.split()
    if len(tokens) == 1 and tokens[0] in ("2-1", "1-2"):        # result-only form
        h, a = map(int, tokens[0].split("-"))
        return h, a
    assert len(tokens) in (2, 3), line
    won = [0, 0]
    for tok in tokens:
        assert max(won) < 2, f"game played after the board was decided: {line}"
        h, a = map(int, tok.split("-"))
        assert max(h, a) == 12 and 0 <= min(h, a) <= 11, line
        won[0 if h > a else 1] += 1
    assert sorted(won) in ([0, 2], [1, 2]), line
    return won[0], won[1]


def pair_of(ref, squad: list[list[str]]) -> frozenset:
    if isinstance(ref, int):
        assert 1 <= ref <= len(squad), ref
        return frozenset(squad[ref - 1])
    assert frozenset(ref) in {frozenset(p) for p in squad}, ref
    return frozenset(ref)


def check_match(m: dict, teams: dict) -> str:
    """Validates one team match and returns its winner."""
    home, away = m["home"], m["away"]
    assert home in teams and away in teams and home != away, (home, away)
    if "walkover" in m:
        assert m["walkover"] in (home, away) and "boards" not in m
        return away if m["walkover"] == home else home
    boards = m["boards"]
    assert len(boards) == 5, m
    used = {"home": [], "away": []}
    won = [0, 0]
    for i, b in enumerate(boards, 1):
        if isinstance(b, str):
            score, hp, ap = b, i, i
        else:
            score, hp, ap = b["score"], b["home"], b["away"]
        used["home"].append(pair_of(hp, teams[home]["pairs"]))
        used["away"].append(pair_of(ap, teams[away]["pairs"]))
        h, a = board_result(score)
        won[0 if h > a else 1] += 1
    for side in used.values():
        assert len(set(side)) == 5, f"a pair played twice in {home} x {away}"
    assert sorted(won) in ([0, 5], [1, 4], [2, 3])
    return home if won[0] > won[1] else away


def check_stage(path: Path, players: dict, clubs: dict) -> dict:
    stage = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert SLUG.match(path.stem)
    assert isinstance(stage["date"], dt.date) and stage["status"] in ("scheduled", "in_progress", "final")
    assert stage["host"] in clubs
    teams = stage["teams"]
    seen: dict[str, str] = {}
    for tid, team in teams.items():
        assert SLUG.match(tid)
        assert team.get("club", tid) in clubs
        assert 5 <= len(team["pairs"]) <= 6
        for pair in team["pairs"]:
            assert len(pair) == 2 and pair[0] != pair[1]
            for p in pair:
                assert p in players, p
                assert p not in seen, f"{p} plays for {seen[p]} and {tid} in {path}"
                seen[p] = tid
    winners: dict[str, list] = {}
    for phase in stage.get("phases", []):
        for gname, group in (phase.get("groups") or {}).items():
            assert 4 <= len(group["teams"]) <= 6 and set(group["teams"]) <= set(teams)
            for m in group["matches"]:
                assert m["home"] in group["teams"] and m["away"] in group["teams"]
                check_match(m, teams)
        for rnd in phase.get("knockout") or []:
            res = []
            for m in rnd["matches"]:
                w = check_match(m, teams)
                res.append((w, m["away"] if w == m["home"] else m["home"]))
            winners[rnd["round"]] = (rnd, res)
    if stage["status"] == "final":
        # knockout consistency: winners advance, losers drop to the placement matches
        def side(name, i):
            return {r[i] for r in winners[name][1]}
        assert len(side("Quartas de final", 0) | side("Quartas de final", 1)) == 8
        assert side("Quartas de final", 0) == side("Semifinal", 0) | side("Semifinal", 1)
        assert side("Quartas de final", 1) == side("Semifinal do 5º ao 8º", 0) | side("Semifinal do 5º ao 8º", 1)
        assert winners["Semifinal do 5º ao 8º"][0]["places"] == [5, 8]
        assert side("Semifinal do 5º ao 8º", 0) == side("Disputa de 5º lugar", 0) | side("Disputa de 5º lugar", 1)
        assert side("Semifinal do 5º ao 8º", 1) == side("Disputa de 7º lugar", 0) | side("Disputa de 7º lugar", 1)
        assert side("Semifinal", 1) == side("Disputa de 3º lugar", 0) | side("Disputa de 3º lugar", 1)
        assert side("Semifinal", 0) == side("Final", 0) | side("Final", 1)
        for name, place in (("Final", 1), ("Disputa de 3º lugar", 3), ("Disputa de 5º lugar", 5),
                            ("Disputa de 7º lugar", 7)):
            assert winners[name][0]["for_place"] == place
    for d in stage.get("draws", []):
        assert sorted(d["teams"]) == sorted(d["order"]) and set(d["teams"]) <= set(teams)
    return stage


def check_championship(path: Path, players: dict) -> None:
    ch = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert SLUG.match(path.stem) and isinstance(ch["date"], dt.date) and ch["status"] == "final"
    assert ch["prizes"] == {1: 25, 2: 15, 3: 10, 4: 6, 5: 5, 6: 4, 7: 3, 8: 2}
    numbers = ch["players"]
    assert 14 <= len(numbers) <= 20 and sorted(numbers) == list(range(1, len(numbers) + 1))
    assert all(p in players for p in numbers.values())
    assert len(set(numbers.values())) == len(numbers)
    assert len(ch["rounds"]) == 4
    for r, rnd in enumerate(ch["rounds"], 1):
        rebuys = rnd.get("rebuys", {})
        paid = rnd.get("commission_paid", {})
        assert all(v == 1 for v in rebuys.values())
        seated = []
        for t, table in rnd["tables"].items():
            assert 4 <= len(table) <= 5
            seated += list(table)
            expected = 100 * (len(table) + sum(rebuys.get(p, 0) for p in table)) + paid.get(t, 0)
            assert sum(table.values()) == expected, f"{path} round {r} table {t}"
            assert all(c >= 0 for c in table.values())
        assert sorted(seated) == sorted(numbers), f"{path} round {r}: not everyone seated once"
        assert set(paid) <= set(rnd["tables"]) and set(rebuys) <= set(numbers)
        for pen in rnd.get("penalties", []):
            assert pen["player"] in numbers and pen["chips"] == 200 and pen["reason"]


def check_tree(root: Path) -> None:
    players = yaml.safe_load((root / "players.yaml").read_text(encoding="utf-8"))
    clubs = yaml.safe_load((root / "clubs.yaml").read_text(encoding="utf-8"))
    league = yaml.safe_load((root / "league.yaml").read_text(encoding="utf-8"))
    assert league["locale"] == "pt_BR" and league["name"] and league["short_name"]
    for pid, p in players.items():
        assert SLUG.match(pid) and p["name"] and p.get("club", next(iter(clubs))) in clubs
    assert all(SLUG.match(c) for c in clubs)
    seasons = sorted(p.name for p in (root / "seasons").iterdir())
    assert seasons[-1] == "2026"
    for season in seasons:
        sdir = root / "seasons" / season
        assert yaml.safe_load((sdir / "season.yaml").read_text(encoding="utf-8"))["title"]
        stages = sorted((sdir / "truco").glob("*.yaml"))
        assert [s.stem for s in stages] == [f"etapa-{k}" for k in range(1, 7)]
        statuses = [check_stage(s, players, clubs)["status"] for s in stages]
        if season == "2026":
            assert statuses == ["final"] * 4 + ["in_progress", "scheduled"]
        else:
            assert statuses == ["final"] * 6
        for ch in sorted((sdir / "quatrilho").glob("*.yaml")):
            check_championship(ch, players)
    for md in sorted((root / "pages").glob("*.md")) + sorted((root / "news").glob("*.md")):
        text = md.read_text(encoding="utf-8")
        assert text.startswith("---\n")
        assert yaml.safe_load(text.split("---\n")[1])["title"]


# ---------------------------------------------------------------------------------------------

def test_same_arguments_give_byte_identical_trees(archive, tmp_path):
    again = tmp_path / "again"
    run_synth(again)
    assert tree(archive) == tree(again)
    other = tmp_path / "other"
    run_synth(other, [*ARGS[:-1], "8"])
    assert tree(other) != tree(archive)


def test_tree_layout(archive):
    files = set(tree(archive))
    assert {"league.yaml", "clubs.yaml", "players.yaml"} <= files
    assert {f"seasons/{y}/truco/etapa-{k}.yaml" for y in (2025, 2026) for k in range(1, 7)} <= files
    assert sum(1 for f in files if f.startswith("seasons/2025/quatrilho/")) == 1
    assert any(f.startswith("pages/") for f in files) and any(f.startswith("news/") for f in files)


def test_archive_is_valid(archive):
    check_tree(archive)


def test_last_season_in_progress_and_scheduled(archive):
    ip = yaml.safe_load((archive / "seasons/2026/truco/etapa-5.yaml").read_text(encoding="utf-8"))
    sched = yaml.safe_load((archive / "seasons/2026/truco/etapa-6.yaml").read_text(encoding="utf-8"))
    assert [p["name"] for p in ip["phases"]] == ["Fase de grupos"]
    n_teams = len(ip["teams"])
    played = sum(len(g["matches"]) for g in ip["phases"][0]["groups"].values())
    full = sum(len(g["teams"]) * (len(g["teams"]) - 1) // 2 for g in ip["phases"][0]["groups"].values())
    assert n_teams == 8 and 0 < played < full
    assert sched["teams"] and "phases" not in sched


def test_wider_archive_is_valid(tmp_path):
    """Odd team counts (groups of 5 and 4, b-teams) and several championships, still fast."""
    out = tmp_path / "wide"
    run_synth(out, ["--seasons", "3", "--teams", "13", "--championships", "3", "--seed", "11"])
    check_tree(out)
    stage = yaml.safe_load((out / "seasons/2024/truco/etapa-1.yaml").read_text(encoding="utf-8"))
    assert sorted(len(g["teams"]) for g in stage["phases"][0]["groups"].values()) == [4, 4, 5]
    season = yaml.safe_load((out / "seasons/2024/season.yaml").read_text(encoding="utf-8"))
    assert season["truco"]["ranking_points"][0] == 25


if __name__ == "__main__":   # python tests/test_synth.py DIR: validate a generated tree by hand
    check_tree(Path(sys.argv[1]))
    print("ok")
