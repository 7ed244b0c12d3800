"""A page or a news item as the site shows it: Markdown from content/pages and content/news, made HTML
(league.content.pages reads them). Kept apart from the reader, which imports Markdown and the schema, so that
the build cache can rebuild pages without importing those."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Optional


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
