"""bench/floors (issue 6): the CPU of each part of a cold build done alone, beside the CPU a build 4× faster than
Hugo may spend. The tool runs here on the demo content with this interpreter (its league), once per part; the
arithmetic of its report is checked by hand."""
from __future__ import annotations

import json
import subprocess
import sys

from tests.util import ROOT, bench_script


def test_every_part_of_the_demo_build_is_measured_on_its_own(tmp_path):
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "floors"), "--content", str(ROOT / "content"),
                        "--python", sys.executable, "--repeat", "1", "--json", "--hugo-seconds", "10",
                        "--work", str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    got = json.loads(r.stdout)
    parts = got["parts"]
    assert set(parts) == {"imports", "yaml", "load", "render", "stubs", "pagefind", "write", "jinja-hugo-page"}
    assert all(p["cpu_s"] > 0 for p in parts.values()), parts
    # what each part went over is the demo site's: the build's 378 pages and 116 embed pages (1 season ranking,
    # 14 clubs, 101 pairs: 494; 404.html is not a page job, but is an HTML file, and the Jinja2 primitive
    # renders one Hugo page per HTML file: 495)
    assert parts["render"]["count"] == 378 + 116
    assert parts["jinja-hugo-page"]["count"] == 378 + 116 + 1
    assert parts["stubs"]["count"] == parts["pagefind"]["count"] > 0   # pagefind indexes exactly the stubs
    assert parts["yaml"]["count"] > 1000   # libyaml's events over the demo's content files
    # the sum is that of the build's parts, without libyaml's events (inside the loading) nor the primitive
    assert got["sum"] == sum(parts[n]["cpu_s"] for n in ("imports", "load", "render", "stubs", "pagefind", "write"))
    # its work folder is deleted; what is left is the time of that deletion, for bench/run's and its own next run
    # (on ext4, files created within minutes of a mass deletion cost several times as much)
    assert [p.name for p in tmp_path.iterdir()] == [".trash-emptied"]


def test_the_report_sets_the_sum_beside_the_budget_of_the_target():
    floors = bench_script("floors")
    figures = {"imports": (0.25, 1), "yaml": (0.5, 100), "load": (2.0, 270), "render": (3.75, 10335),
               "stubs": (0.5, 10282), "pagefind": (1.5, 10282), "write": (2.0, 28122), "jinja-hugo-page": (6.0, 10336)}
    text = floors.report(figures, 15.0, 2, 4.0, 20)
    # parts summed: 0.25 + 2.0 + 3.75 + 0.5 + 1.5 + 2.0 = 10.00 CPU-s (yaml is inside load; the primitive is not
    # league's work); budget: 2 cores × 15 s / 4 = 7.50 CPU-s (3.75 s with both cores busy); 10 / 7.5 = 133 %
    assert "**10.00 CPU-s**" in text
    assert "at most **7.50 CPU-s** (3.75 s with every core busy throughout)" in text
    assert "take 133 % of it" in text
    assert "| rendering every page (views, templates, charts) | 3.75 | 10,335 pages |" in text
