"""A stage's boards by pair kept in the build cache (league/engine/board_index.py): the pair and player pages of a
rebuild list them without reading the stages' matches back, and the site is the one a cold build makes."""
from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from league.engine.build import build, check

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "league" / "templates"


def _tree(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and p.name != ".league-build.json"}


@pytest.fixture()
def demo(tmp_path) -> Path:
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    return content


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    """A synthetic archive of 3 seasons (bench/synth.py), whose players play in every season."""
    from tests.util import synth
    return synth(tmp_path_factory.mktemp("synth") / "content", "--seasons", "3", "--teams", "8",
                 "--championships", "1", "--seed", "5")


def test_the_boards_read_back_are_the_ones_made_from_the_matches(demo):
    # every stage of the demo: the rows kept (board_bytes, read back by board_rows) give, pair by pair and in
    # the same order, the very PairBoards that league.site.boards.stage_boards makes from the stage's matches
    from league.engine.board_index import IndexedBoards, board_bytes, board_rows
    from league.engine.codec import dumps, loads
    from league.site.boards import stage_boards
    stages = [st for sr in check(demo, cache_dir=False).results.seasons for st in (r.stage for r in sr.stages)]
    assert len(stages) >= 6
    boards = 0
    for st in stages:
        made = stage_boards(st)
        rows = board_rows(loads(dumps(board_bytes(made))))   # as the cache writes and reads it
        assert rows is not None
        kept = IndexedBoards(rows)
        assert list(kept) == list(made) and len(kept) == len(made)
        assert all(kept[pair] == made[pair] for pair in made)
        assert all(type(b).__name__ == "PairBoard" for pair in kept for b in kept[pair])
        boards += sum(len(kept[pair]) for pair in kept)
    assert boards > 100   # (a stage still to be played has none)


def _edit_archive_score(content: Path, k: int) -> None:
    # the first board line of the last season's first stage: its first game's loser's pontinhos made k
    import re
    stage = sorted(content.glob("seasons/*/truco/etapa-1.yaml"))[-1]
    text = stage.read_text(encoding="utf-8")
    m = re.search(r'- "12-(\d+) ', text)
    assert m, stage
    stage.write_text(text[:m.start(1)] + str(k) + text[m.end(1):], encoding="utf-8")


def test_a_score_edit_lists_the_players_boards_without_reading_the_other_stages_matches_back(archive, tmp_path,
                                                                                          monkeypatch):
    # a synthetic archive of 3 seasons, whose players play in every season. The rebuild after a score edit
    # renders the players' pages of the edited board, each listing its boards in every stage of every season:
    # their rows come from the boards entries, and the matches read back are only those of the edited
    # season's stages (its page lists who is left out of its pairs' ranking, from the matches). Without the
    # entries (CachedBoards not used), the players' pages read back the other seasons' matches too. Each
    # rebuild as in a new process (KEPT: nothing kept in memory from the build before); both sites are the
    # cold build's.
    import league.engine.codec as codec
    import league.engine.board_index as B
    from league.engine.cache import KEPT
    content = tmp_path / "content"
    shutil.copytree(archive, content)
    cache = tmp_path / "cache"
    build(content, tmp_path / "site", templates=TEMPLATES, cache_dir=cache, search=False)
    read: list = []
    real = codec._loads_phases
    monkeypatch.setattr(codec, "_loads_phases", lambda data: read.append(data) or real(data))
    per_season = len(list(content.glob("seasons/*/truco/*.yaml"))) // 3

    def rebuild(k: int) -> int:
        _edit_archive_score(content, k)   # a new score each time
        read.clear()
        KEPT.forget()
        report = build(content, tmp_path / "site", templates=TEMPLATES, cache_dir=cache, search=False)
        assert 0 < report.rendered < report.pages
        shutil.rmtree(tmp_path / "cold", ignore_errors=True)
        build(content, tmp_path / "cold", templates=TEMPLATES, cache_dir=False, search=False)
        assert _tree(tmp_path / "site") == _tree(tmp_path / "cold")
        return len(read)
    first = rebuild(1)        # the first rebuild writes the entries of the stages it needs (a first build does not)
    with_entries = rebuild(3)
    monkeypatch.setattr(B.CachedBoards, "__call__", lambda self, stage: B.stage_boards(stage))
    without = rebuild(2)
    assert with_entries <= per_season < without == first, (first, with_entries, per_season, without)


@pytest.mark.parametrize("damage", ["deleted", "corrupted", "forged"])
def test_a_missing_or_corrupted_boards_entry_is_made_again_from_the_matches(archive, tmp_path, damage):
    # every stage's boards entry deleted; or overwritten with bytes that are not an entry; or with an entry of the
    # cache's format and digest whose bytes are not boards by pair (a list): the rebuild lists the boards from
    # the stages' matches (a corrupted entry is reported, as every corrupted entry is), writes the entries
    # again, and makes the cold build's site
    import marshal
    from league.engine.board_index import board_rows, boards_key
    from league.engine.cache import KEPT, MAGIC, _digest
    from league.engine.codec import dumps
    content = tmp_path / "content"
    shutil.copytree(archive, content)
    cache = tmp_path / "cache"
    first = build(content, tmp_path / "site", templates=TEMPLATES, cache_dir=cache, search=False)
    keys = {boards_key(k) for k in first.stage_keys.values()}
    assert not [p for p in cache.rglob("*.entry") if p.stem in keys]   # a first build has the matches in memory
    shutil.rmtree(tmp_path / "site")
    build(content, tmp_path / "site", templates=TEMPLATES, cache_dir=cache, search=False)   # every page, read back
    # (the entries of the stages whose boards were asked for before their matches were read back for their page)
    files = [p for p in cache.rglob("*.entry") if p.stem in keys]
    assert 0 < len(files) <= len(keys)
    damaged = {}
    for p in files:
        if damage == "deleted":
            p.unlink()
        elif damage == "corrupted":
            p.write_bytes(b"not an entry")
        else:
            payload = dumps(marshal.dumps([("a", "b"), 1]))
            p.write_bytes(MAGIC + _digest(p.stem, payload) + payload)
        if p.exists():
            damaged[p] = p.read_bytes()
    _edit_archive_score(content, 1)
    KEPT.forget()   # (as a new process: the stages read back from the files, their matches not read)
    report = build(content, tmp_path / "site", templates=TEMPLATES, cache_dir=cache, search=False)
    warned = [d for d in report.diagnostics if d.code == "cache"]
    if damage == "deleted":
        assert warned == []
    else:
        assert warned and all("corrompida" in d.message for d in warned)
        assert damage != "forged" or all("não são as jogadas de uma etapa" in d.message for d in warned)
    # made again, whole: those of the stages whose pages the rebuild rendered (the others are not read)
    again = [p for p in cache.rglob("*.entry") if p.stem in keys and p.read_bytes() != damaged.get(p)]
    assert again and all(board_rows(_value(p)) is not None for p in again)
    build(content, tmp_path / "cold", templates=TEMPLATES, cache_dir=False, search=False)
    assert _tree(tmp_path / "site") == _tree(tmp_path / "cold")


def _value(path: Path):
    from league.engine.cache import _open
    return _open(path.stem, path.read_bytes())
