"""Where league finds its own files; a module of its own so that a no-op build, which only hashes them,
imports nothing heavier (league.site.render pulls in Jinja2 and the whole model: ~45 ms)."""
from __future__ import annotations

from pathlib import Path


def default_templates() -> Path:
    """./templates when the current folder has league's templates (a site's own copy), else league's own."""
    local = Path("templates")
    if (local / "base.html").exists():
        return local
    return own_templates()


def own_templates() -> Path:
    """league's templates and their static files: league/templates, installed with the package."""
    return Path(__file__).resolve().parents[1] / "templates"
