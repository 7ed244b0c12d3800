"""A page or a news item as the site shows it: Markdown from content/pages and content/news, made HTML
(league.content.pages reads them). Kept apart from the reader, which imports Markdown and the schema, so that
the build cache can rebuild pages without importing those."""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Optional


# The sections the build writes into a page from league.yaml and the code's criteria (league/site/rules.py),
# where a line holds only [[name]] — so that the rules page cannot go stale when the settings change.
RULE_BLOCKS = ("pontos-de-ranking", "desempate-equipes", "desempate-duplas", "classificacao-da-etapa",
               "ranking-anual", "desempate-quatrilho")
BLOCK_LINE = re.compile(r"^[ \t]*\[\[[ \t]*([^\]\s]*)[ \t]*\]\][ \t]*$", re.M)
# In the HTML (league.content.pages.render_markdown): the paragraph that line makes.
BLOCK_HTML = re.compile(r"<p>\[\[\s*([a-z-]+)\s*\]\]</p>")


@dataclass(frozen=True)
class Page:
    slug: str
    title: str
    html: str
    date: Optional[dt.date]
    season: Optional[str]
    stage: Optional[str]
    championship: Optional[str]
    summary: Optional[str]
    order: int
    path: str
    is_news: bool
