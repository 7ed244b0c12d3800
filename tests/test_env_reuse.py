"""league serve builds again and again in one process: the compiled templates of the last build are reused
(league.engine.build._ENV) while nothing they were compiled from changed, and never after."""
import shutil
from pathlib import Path

from league.engine import build as B

ROOT = Path(__file__).resolve().parents[1]


def test_the_compiled_templates_are_reused_until_a_template_changes(tmp_path):
    templates = tmp_path / "templates"
    shutil.copytree(ROOT / "league" / "templates", templates)
    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    out, cache = tmp_path / "site", tmp_path / "cache"
    B.build(content, out, templates=templates, cache_dir=cache, search=False)
    (first,) = B._ENV.values()
    page = content / "pages" / "regulamento.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nMais uma linha.\n", encoding="utf-8")
    B.build(content, out, templates=templates, cache_dir=cache, search=False)
    assert list(B._ENV.values()) == [first]            # content changed, templates not: the same environment
    base = templates / "404.html"
    base.write_text(base.read_text(encoding="utf-8").replace("</h1>", " (editado)</h1>", 1), encoding="utf-8")
    B.build(content, out, templates=templates, cache_dir=cache, search=False)
    (second,) = B._ENV.values()
    assert second is not first                          # a template changed: compiled again
    assert "(editado)</h1>" in (out / "404.html").read_text(encoding="utf-8")
