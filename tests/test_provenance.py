"""Provenance: every match and every Quatrilho table links to its source line in the repository, and a
page's "atualizado em" comes from the newest commit touching its content (the content's dates without git)."""
from __future__ import annotations

import datetime as dt
import re
import shutil
import subprocess
from pathlib import Path

from league.engine.build import build
from league.site.render import date_br

ROOT = Path(__file__).resolve().parent.parent
REPO = "https://github.com/example/fprt-resultados"


def test_matches_and_tables_link_to_their_source_line(tmp_path):
    build(ROOT / "content", tmp_path / "site", templates=ROOT / "league" / "templates", cache_dir=False)
    stage = (tmp_path / "site/2026/truco/etapa-1/index.html").read_text(encoding="utf-8")
    links = re.findall(rf'href="{REPO}/blob/main/content/seasons/2026/truco/etapa-1\.yaml#L(\d+)"', stage)
    source = (ROOT / "content/seasons/2026/truco/etapa-1.yaml").read_text(encoding="utf-8").splitlines()
    # 24 group matches + the knockout matches, each pointing at a line that starts a match ("- home: …")
    assert len(links) >= 24
    match_links = [n for n in links if not source[int(n) - 1].startswith("name:")]  # one link is the file's
    assert len(match_links) >= 24
    assert all("home:" in source[int(n) - 1] for n in match_links)
    champ = (tmp_path / "site/2026/quatrilho/chapeco/index.html").read_text(encoding="utf-8")
    tables = re.findall(rf'href="{REPO}/blob/main/content/seasons/2026/quatrilho/chapeco\.yaml#L(\d+)"', champ)
    assert len(tables) >= 16  # 20 players: 4 tables × 4 rounds


def test_updated_from_git_or_from_content_dates(tmp_path):
    build(ROOT / "content", tmp_path / "git", templates=ROOT / "league" / "templates", cache_dir=False)
    page = (tmp_path / "git/2026/truco/etapa-1/index.html").read_text(encoding="utf-8")
    log = subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%cs", "--",
                          "content/seasons/2026/truco/etapa-1.yaml"], capture_output=True, text=True)
    if log.returncode == 0 and log.stdout.strip():
        assert f"atualizado em {date_br(dt.date.fromisoformat(log.stdout.strip()))}" in page
    # without git: the stage's own date (etapa-1 is on 14 March 2026)
    copy = tmp_path / "nogit" / "content"
    shutil.copytree(ROOT / "content", copy)
    build(copy, tmp_path / "nogit" / "site", templates=ROOT / "league" / "templates", cache_dir=False)
    page = (tmp_path / "nogit/site/2026/truco/etapa-1/index.html").read_text(encoding="utf-8")
    assert "atualizado em 14 de março de 2026" in page
