"""bench/where's reading of a py-spy profile (issue 6: "say in the note where the time went"): each sample
goes to the category of its innermost known frame, and the phases come from the build's own timing lines.
bench/where is a stdlib script; its functions are loaded from it (py-spy itself is not run here)."""
from __future__ import annotations

import pytest

from tests.util import bench_script


def _where():
    return bench_script("where")


RAW = [
    # 50 samples writing a page inside a worker's share: "write files" (innermost), not "templates"
    'process 1:"league";run_plan (league/site/render.py:800);_share (league/site/render.py:690);'
    "SiteWriter.put (league/site/writer.py:170) 50",
    # 30 in a chart drawn from a template: "charts", although the page's template is further out
    "run_plan (league/site/render.py:800);render_page (league/site/render.py:672);Template.render (jinja2/environment.py:1295);"
    "root (pair.html:8);Charts.pair (league/site/charts.py:290);line_chart (league/site/charts.py:120) 30",
    # 20 in the template itself
    "run_plan (league/site/render.py:800);render_page (league/site/render.py:672);Template.render (jinja2/environment.py:1295);"
    "root (pair.html:8) 20",
    # 25 parsing YAML in a load worker; 15 in nothing listed
    "run_tasks (league/engine/parallel_load.py:20);StageLoader.load (league/games/truco/reading.py:47);ContentReader.yaml (league/engine/content_reader.py:45);"
    "load_yaml (league/content/yamlio.py:400);_fast (league/content/yamlio.py:300) 25",
    "<module> (league:6);something (elsewhere.py:1) 15",
    "not a sample line",
]


def test_each_sample_goes_to_its_innermost_category_at_the_sampling_rate():
    w = _where()
    cats, tops, total = w.categorize(RAW, 10.0)
    # 140 samples at 10 Hz = 14.0 s: write files 5.0, charts 3.0, YAML 2.5, templates 2.0, other 1.5
    assert total == 14.0
    assert cats == [("write files", 5.0), ("charts", 3.0), ("YAML", 2.5), ("templates", 2.0), ("other", 1.5)]
    # the innermost frames, line numbers dropped: put 5.0, line_chart 3.0, _fast 2.5, root (pair.html) 2.0, something 1.5
    assert tops[0] == ("SiteWriter.put (league/site/writer.py)", 5.0)
    assert ("root (pair.html)", 2.0) in tops and ("_fast (league/content/yamlio.py)", 2.5) in tops


def test_the_phases_are_read_from_the_builds_own_lines_in_order_and_reported():
    w = _where()
    err = ("aviso: something\nWHERE-PHASE 2.500 5.250 run_plan\nWHERE-PHASE 0.100 2.000 check\n"
           "WHERE-PHASE 5.250 5.750 resolve_keys\n")
    steps = w.phases(err)
    assert steps == [(0.1, 2.0, "check"), (2.5, 5.25, "run_plan"), (5.25, 5.75, "resolve_keys")]
    text = w.report(steps, [("write files", 5.0), ("templates", 2.0)], [("x (y.py)", 5.0)], 7.0, 6.0, 12.0, "cold")
    # run_plan: 5.25 − 2.50 = 2.75 s; write files 5.0 of 7.0 s sampled = 71.4 %
    assert "| run_plan | 2.50 | 5.25 | 2.75 |" in text
    assert "| write files | 5.00 | 71.4 |" in text
    assert text.startswith("bench/where: cold: 6.00 s wall under py-spy, 12.00 CPU-s")


def test_the_timeline_tells_each_process_cpu_and_what_pagefind_and_git_took_besides():
    w = _where()
    err = ("WHERE-PROC 11 2.500 1.400 0.100\nWHERE-PHASE 0.1 2.0 check\nWHERE-PROC 12 6.000 2.500 0.300\n"
           "WHERE-MAIN 6.200 4.000 0.600 5.100 0.900\n")
    procs = w.processes(err)
    # the children's 5.1 user / 0.9 system s, less the two forked processes' 1.4 + 2.5 and 0.1 + 0.3:
    # pagefind and git took 1.2 user and 0.5 system s
    assert [p[:2] for p in procs] == [("main", 6.2), ("forked process 1", 2.5), ("forked process 2", 6.0),
                                      ("other children (pagefind, git)", 6.2)]
    assert procs[0][2:] == (4.0, 0.6) and procs[1][2:] == (1.4, 0.1)
    assert procs[3][2] == pytest.approx(1.2) and procs[3][3] == pytest.approx(0.5)
    # the whole tree: main's own 4.0 + 0.6 and its children's 5.1 + 0.9 = 10.6 s; unknown without the main's line
    assert w.tree_cpu(procs) == pytest.approx(10.6)
    assert w.tree_cpu(procs[1:3]) != w.tree_cpu(procs[1:3])   # NaN


def test_the_cores_busy_are_weighed_into_bins_and_the_idle_core_seconds_summed():
    w = _where()
    # 1 core busy in 0–0.1 s, 2 in 0.1–0.3 s, none in 0.3–0.4 s; bins of 0.25 s:
    # 0–0.25: (1 × 0.1 + 2 × 0.1 + 2 × 0.05) / 0.25 = 1.6; 0.25–0.4: (2 × 0.05 + 0 × 0.1) / 0.15 = 0.667
    bins = w.busy_bins([(0.1, 1.0), (0.2, 2.0), (0.3, 2.0), (0.4, 0.0)], 0.4, 0.25)
    assert [(lo, hi) for lo, hi, _ in bins] == [(0.0, 0.25), (0.25, 0.4)]
    assert bins[0][2] == pytest.approx(1.6) and bins[1][2] == pytest.approx(0.1 / 0.15)
    # idle on 2 cores: (2 − 1.6) × 0.25 + (2 − 0.667) × 0.15 = 0.1 + 0.2 = 0.3 core-s (= 2 × 0.4 − 0.5 busy)
    assert w.idle(bins, 2) == pytest.approx(0.3)
    text = w.timeline_report([(0.1, 2.0, "check")], w.processes("WHERE-MAIN 0.4 0.3 0.05 0.1 0.05\n"), bins, 2,
                             0.4, 0.5, "cold")
    # at most 0.3 / 2 = 0.15 s to gain by keeping both cores busy
    assert "0.30 core-s idle of 2 × 0.40: keeping every core busy all along could save at most 0.15 s" in text
    assert "| 0.00 | 0.25 | 1.60 |" in text and "| main | 0.40 | 0.30 | 0.05 |" in text
