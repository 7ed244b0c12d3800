"""Rendering makes no reference cycles: pages are rendered with the cyclic garbage collector paused
(league/engine/rendering.py `_share`, league.engine.cache.gc_paused), which is only safe while everything a page's rendering
leaves behind is freed by reference counting alone. Every page of the demo site is rendered here with the
collector off, its templates compiled beforehand as a build compiles them; a full collection afterwards must
find nothing to free."""
from __future__ import annotations

import gc
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(not (ROOT / "content" / "league.yaml").exists(), reason="no demo content")
def test_rendering_every_page_of_the_demo_site_leaves_no_cyclic_garbage():
    from league.engine.build import check
    from league.i18n import using
    from league.site.render import plan_site, render_page
    results = check(ROOT / "content", cache_dir=False).results
    with using(results.league.locale):
        plan = plan_site(results)
        pages = [job for job in plan.jobs if job.template is not None]
        # every template compiled first, as a build's prepare_env does while the content loads (compiling
        # does make a few cycles: league.i18n's folding of the interface text, once per template)
        for name in plan.env.list_templates(filter_func=lambda n: n.endswith((".html", ".xml"))):
            plan.env.get_template(name)
        gc.collect()
        was = gc.isenabled()
        gc.disable()
        try:
            sizes = [len(render_page(plan, job)) for job in pages]
            found = gc.collect()
        finally:
            if was:
                gc.enable()
    assert len(sizes) == len(pages) > 300 and min(sizes) > 0   # the demo's ~378 pages, each rendered
    assert found == 0   # nothing that only the cyclic collector could have freed
