#!/usr/bin/env python3
"""Compares the static API written by `league build` (site/api/<season>/truco/*.json) with what
tools/demo/check_demo.py computes independently from the same content, and prints every
difference (a development aid for the demo season; it does not import the `league` package).

Usage:  python -m league build --content content --out /tmp/site
        python tools/demo/compare_engine.py --content content --site /tmp/site
"""
from __future__ import annotations

import argparse
import json
import pathlib
import sys
from collections import defaultdict

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import check_demo as ck  # noqa: E402

METRICS = ("played", "wins", "points", "pair_points_balance", "pontinhos_balance")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--content", default="content")
    ap.add_argument("--site", default="site")
    args = ap.parse_args(argv)
    _, _, _, seasons, problems = ck.load_content(pathlib.Path(args.content))
    diffs = list(problems)
    for year, (cfg, stages) in seasons.items():
        table = cfg["ranking_points"]
        api = pathlib.Path(args.site) / "api" / year / "truco"
        club_total = defaultdict(float)
        pair_total = {r: defaultdict(float) for r in ck.WALKOVER_PAIR_READINGS}
        for st in stages:
            path = api / f"{st.id}.json"
            if not path.exists():
                diffs.append(f"{st.id}: no {path}")
                continue
            got = json.loads(path.read_text(encoding="utf-8"))
            res = ck.compute_stage(st)
            # groups
            eng_groups = {g["name"]: g["standings"] for g in got.get("groups", [])}
            for gname, (ranked, rows) in res["groups"].items():
                mine = [(t, p, tied, d) for (t, p, tied), (_, d, _, _) in
                        zip(ck.positions(ranked), ranked)]
                eng = eng_groups.get(gname)
                if eng is None:
                    diffs.append(f"{st.id} {gname}: missing in engine output")
                    continue
                for (t, p, tied, d), e in zip(mine, eng):
                    if (t, p, tied) != (e["team"], e["position"], e["tied"]):
                        diffs.append(f"{st.id} {gname}: mine {t} {p}{'=' if tied else ''}, "
                                     f"engine {e['team']} {e['position']}{'=' if e['tied'] else ''}")
                    elif d != e.get("decided_by"):
                        diffs.append(f"{st.id} {gname} {t}: decided_by mine {d}, engine {e.get('decided_by')}")
                    for k in METRICS:
                        if t == e["team"] and rows[t][k] != e.get(k):
                            diffs.append(f"{st.id} {gname} {t}: {k} mine {rows[t][k]}, engine {e.get(k)}")
            # classification
            cl = res["classification"]
            if cl:
                eng = got.get("classification", [])
                for t, e in zip(cl["order"], eng):
                    p = cl["place"][t]
                    pts = table[p - 1] if p <= len(table) else 0
                    if (t, p, pts) != (e["team"], e["position"], e.get("ranking_points")):
                        diffs.append(f"{st.id} classification: mine {p} {t} +{pts}, engine "
                                     f"{e['position']} {e['team']} +{e.get('ranking_points')}")
                best = {}
                for t in cl["order"]:
                    best.setdefault(st.teams[t], cl["place"][t])
                for c, p in best.items():
                    club_total[c] += table[p - 1] if p <= len(table) else 0
            # pairs: which walkover reading does the engine follow?
            # entries of a tied block may come in any order: compare as a set
            eng_pairs = sorted((tuple(sorted(e["players"])), e["position"], e["tied"])
                               for e in got.get("pairs", []))
            matching = []
            for reading, (ranked, rows, team_of) in res["pairs"].items():
                mine = sorted((tuple(sorted(p)), pos, tied) for p, pos, tied in ck.positions(ranked))
                if mine == eng_pairs:
                    matching.append(reading)
                if st.status == "final":
                    for p, pos, tied in ck.positions(ranked):
                        if pos <= len(table):
                            pair_total[reading][tuple(sorted(p))] += table[pos - 1]
            if st.status == "final" or eng_pairs:
                if not matching:
                    ranked, rows, team_of = res["pairs"]["none"]
                    mine = sorted((tuple(sorted(p)), pos, tied) for p, pos, tied in ck.positions(ranked))
                    first = next((i for i, (a, b) in enumerate(zip(mine, eng_pairs)) if a != b), None)
                    diffs.append(f"{st.id} pairs: no walkover reading matches the engine "
                                 f"(mine {len(mine)} pairs, engine {len(eng_pairs)}; first difference "
                                 f"at row {first}: mine {mine[first] if first is not None and first < len(mine) else None}"
                                 f", engine {eng_pairs[first] if first is not None and first < len(eng_pairs) else None})")
                else:
                    print(f"{st.id}: pair table matches reading(s) {matching}")
        rk = pathlib.Path(args.site) / "api" / year / "truco" / "ranking.json"
        if rk.exists():
            got = json.loads(rk.read_text(encoding="utf-8"))
            eng_clubs = {c["club"]: c["points"] for c in got.get("clubs", [])}
            for c, v in club_total.items():
                if abs(eng_clubs.get(c, 0) - v) > 1e-9:
                    diffs.append(f"ranking clubs {c}: mine {v:g}, engine {eng_clubs.get(c)}")
            eng_pairs = {tuple(sorted(p["players"])): p["points"] for p in got.get("pairs", [])}
            ok = [r for r, tot in pair_total.items()
                  if all(abs(eng_pairs.get(p, 0) - v) < 1e-9 for p, v in tot.items())]
            print(f"ranking.json pairs match reading(s) {ok}")
            if not ok:
                diffs.append("ranking.json pairs match no reading")
    for d in diffs:
        print("DIFF " + d)
    print("no differences" if not diffs else f"{len(diffs)} difference(s)")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
