#!/usr/bin/env python3
"""Write a minimal Hugo site of N pages, each a title and a 30×8 Markdown standings table (issue 6).

    python bench/hugo_site.py --pages 10000 --out /tmp/hugo-site

The site is the reference workload of issue 6: one layout (`layouts/single.html`) that renders
`.Title` and `.Content`, every page kind other than single pages disabled (no home, sections,
taxonomies, RSS, sitemap, robots.txt or 404), so `hugo` writes exactly N HTML files
(`public/p/<n>/index.html`), the same number as the league build it is compared with.

Deterministic for a seed, stdlib only. `bench/run` calls `write_site()` directly.
"""
from __future__ import annotations

import argparse
import random
import shutil
import sys
from pathlib import Path

CONFIG = """\
baseURL = "https://bench.invalid/"
title = "bench"
languageCode = "pt-br"
disableKinds = ["home", "section", "taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]
cacheDir = "{cache_dir}"

[markup.goldmark.renderer]
unsafe = false
"""

LAYOUT = """\
<!doctype html>
<html lang="pt-br">
<head><meta charset="utf-8"><title>{{ .Title }}</title></head>
<body>
<main>
<h1>{{ .Title }}</h1>
{{ .Content }}
</main>
</body>
</html>
"""

HEADER = ["#", "Equipe", "J", "V", "E", "D", "Pontos", "Saldo"]
ROWS = 30
WORDS = ["Associação", "Clube", "Grêmio", "Centro", "Sociedade", "União", "Truco", "Recreativo",
         "Curitiba", "Londrina", "Maringá", "Cascavel", "Toledo", "Castro", "Irati", "Lapa"]


def page_text(n: int, rng: random.Random) -> str:
    """Front matter with a title, then a 30-row × 8-column Markdown table."""
    lines = ["---", f'title: "Classificação {n}"', "---", "",
             "| " + " | ".join(HEADER) + " |",
             "|" + "|".join(["---:", ":---", "---:", "---:", "---:", "---:", "---:", "---:"]) + "|"]
    for pos in range(1, ROWS + 1):
        team = f"{rng.choice(WORDS)} {rng.choice(WORDS)} {rng.randint(1, 99)}"
        played = rng.randint(3, 7)
        won = rng.randint(0, played)
        drawn = rng.randint(0, played - won)
        lost = played - won - drawn
        lines.append(f"| {pos} | {team} | {played} | {won} | {drawn} | {lost} | "
                     f"{3 * won + drawn} | {rng.randint(-40, 40)} |")
    return "\n".join(lines) + "\n"


def write_site(pages: int, out: Path, seed: int = 1, default_kinds: bool = False) -> Path:
    """(Re)write the Hugo source tree for `pages` pages under `out`; returns `out`. `default_kinds`:
    keep Hugo's default page kinds (home, section and taxonomy lists, RSS feeds, sitemap, robots.txt,
    404) instead of single pages only — what a Hugo site has unless told otherwise (the lists have no
    layout here, so Hugo writes their RSS and the sitemap, and the same HTML pages)."""
    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    (out / "content" / "p").mkdir(parents=True)
    (out / "layouts").mkdir()
    config = CONFIG.format(cache_dir=(out / ".hugo-cache").as_posix())
    if default_kinds:
        config = "\n".join(line for line in config.split("\n") if not line.startswith("disableKinds"))
    (out / "hugo.toml").write_text(config, encoding="utf-8")
    (out / "layouts" / "single.html").write_text(LAYOUT, encoding="utf-8")
    rng = random.Random(seed)
    width = max(5, len(str(pages)))
    folder = out / "content" / "p"
    for n in range(1, pages + 1):
        with open(folder / f"{n:0{width}d}.md", "w", encoding="utf-8") as f:
            f.write(page_text(n, rng))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, required=True)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    write_site(args.pages, args.out, args.seed)
    print(f"hugo_site: {args.pages} pages in {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
