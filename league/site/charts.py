"""Charts drawn at build time as small SVG files (no chart library in the browser, no script in them).

Pages show them with <img src=… alt=…>: the alt text states what the chart shows (and the table beside it
holds every number), and an SVG loaded as an image can run nothing. Every chart is a pure function of
the computed results, so two builds give byte-identical files.

- season: the annual club ranking after each final stage (a bump chart of positions);
- club: the position of the club's best team in each final stage;
- pair: the pair's position in each final stage it played;
- rounds: a generic line chart (e.g. a Quatrilho player's chips round by round), `line_chart`.

`Charts(results, site)` is handed to the templates; each method returns {url, alt, width, height} or
None (fewer than two points: nothing to draw) and keeps the SVG in `files` for render_site to write.
Titles, alt texts, numbers and positions are in the build's language (league/i18n.py).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal
from typing import Callable, Optional, Sequence

from league import i18n
from league.i18n import _, pgettext
from league.models import pair_slug
from league.games.truco.ranking import annual_ranking, club_entries
from league.site.chart_text import text_width

# dark enough for 3:1 against white (WCAG 1.4.11), told apart also by the label at each line's end
PALETTE = ["#0b5cad", "#b3261e", "#0a6b2d", "#7a3fb0", "#a35200", "#00707a", "#5c5c00", "#9c1a6b",
           "#3b4a5a", "#6b4a1f"]
DASHES = ["", "6 3", "2 3", "8 3 2 3"]
FONT = "system-ui,-apple-system,Segoe UI,Roboto,Helvetica Neue,Arial,sans-serif"
MUTED = "#4d5560"
LINE = "#d5dae0"
_PAD = 2   # units kept between a text's estimated edge and the chart's
PHONE = 320  # the width of a one-line chart with up to 4 stages or 4 rounds: whole on a 360 px phone (its page
             # has 328 px inside the margins), where it scrolls sideways in its box when it is wider


_N: dict = {}  # float → its text: charts reuse the same few coordinates


def _n(v: float) -> str:
    """Coordinates with one decimal, no trailing zeros: stable text across builds."""
    if type(v) is float and v:  # (0.0 and -0.0 are equal keys but different texts)
        try:
            return _N[v]
        except KeyError:
            pass
    s = f"{v:.1f}"
    s = s[:-2] if s.endswith(".0") else s
    if type(v) is float and v:
        _N[v] = s
    return s


def _t(s: str) -> str:
    # xml.sax.saxutils.escape's replacements, without importing it (it pulls in urllib, http and ssl: 0.2 s)
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


@dataclass
class Series:
    label: str
    values: list[Optional[float]]   # one per x label; None = no point there


def _svg(width: int, height: int, title: str, body: list[str]) -> str:
    return ("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" font-family="{FONT}" font-size="12" role="img">\n'
            f"<title>{_t(title)}</title>\n"
            f'<rect width="{width}" height="{height}" fill="#fff"/>\n' + "\n".join(body) + "\n</svg>\n")


def _spread(ys: list[float], gap: float, lo: float, hi: float) -> list[float]:
    """Label positions near ys, at least `gap` apart, inside [lo, hi] where room allows (order kept)."""
    order = sorted(range(len(ys)), key=lambda i: (ys[i], i))
    out = [0.0] * len(ys)
    prev = None
    for i in order:
        out[i] = max(ys[i], lo) if prev is None else max(ys[i], prev + gap)
        prev = out[i]
    nxt = None
    for i in reversed(order):
        out[i] = min(out[i], hi) if nxt is None else min(out[i], nxt - gap)
        nxt = out[i]
    return out


def line_chart(xs: Sequence[str], series: Sequence[Series], title: str, **options) -> str:
    """The SVG of `draw_line_chart` (its options the same)."""
    return draw_line_chart(xs, series, title, **options)[0]


def draw_line_chart(xs: Sequence[str], series: Sequence[Series], title: str, *, invert: bool = False,
                    y_min: Optional[float] = None, y_max: Optional[float] = None, y_suffix: str = "",
                    width: int = 640, height: int = 300, label_width: int = 0, zero_line: bool = False,
                    point_labels: bool = False, y_format: Optional[Callable[[float], str]] = None) -> tuple[str, int]:
    """Lines over labelled x positions, and the chart's width. invert=True puts small values on top
    (positions: 1º at the top). Each series is labelled at its last point (when label_width > 0: the least
    room kept for the labels) so colour is never the only cue. y_format writes a value (e.g. as a position,
    1º / 1st); by default a number in the locale + y_suffix. The margins are as wide as the texts in them
    need (chart_text.py), and the chart wider than `width` when its labels do not fit in it."""
    fmt = y_format or (lambda v: _fmt(v) + y_suffix)
    lo, hi = _y_range(series, y_min, y_max)
    left, right, least = _margins(xs, series, fmt, _ticks(lo, hi), label_width, point_labels)
    width = max(width, math.ceil(left + right + least))
    plot = _Plot(len(xs), lo, hi, invert, width, height, left, right)
    body = _grid(plot, fmt, zero_line)
    body += [f'<text x="{plot.xn[i]}" y="{height - plot.bottom + 18}" text-anchor="middle" fill="{MUTED}">'
             f"{_t(x)}</text>" for i, x in enumerate(xs)]
    ends = []
    for k, s in enumerate(series):
        end = _line(body, plot, k, s, fmt if point_labels else None)
        if end is not None:
            ends.append(end)
    if label_width and ends:
        body += _end_labels(plot, ends)
    return _svg(width, height, title, body), width


def _margins(xs: Sequence[str], series: Sequence[Series], fmt: Callable[[float], str], ticks: list[float],
             label_width: int, point_labels: bool) -> tuple[float, float, float]:
    """The left and right margins the texts need (issue 36: "4ª Etap" cut off), and the least plot width
    that keeps the x labels (and the values above the points) apart. Left: the y labels (right-aligned 6
    units left of the plot), half of the first x label and of a point's value (both centred on the first x);
    right: half of the last x label and of a value, and the series' labels (10 units right of the plot) when
    there are any."""
    widest = _widest_value(series, fmt) if point_labels else 0
    half = widest / 2 + _PAD
    left = max([text_width(fmt(v)) + 6 + _PAD for v in ticks] + [text_width(xs[0]) / 2 + _PAD, half])
    right = max(text_width(xs[-1]) / 2 + _PAD, half, 16.0)
    if label_width:
        ends = [text_width(s.label) for s in series if any(v is not None for v in s.values)]
        right = max(right, 10 + max(ends + [label_width]) + _PAD)
    least = (len(xs) - 1) * (max([text_width(x) for x in xs] + [widest]) + 8)
    return math.ceil(left), math.ceil(right), least


def _widest_value(series: Sequence[Series], fmt: Callable[[float], str]) -> float:
    """The widest of the values written above the points (bold)."""
    return max((text_width(fmt(v), bold=True) for s in series for v in s.values if v is not None), default=0)


def _y_range(series: Sequence[Series], y_min: Optional[float], y_max: Optional[float]) -> tuple[float, float]:
    """The values' range, or y_min / y_max where given (never empty: one more than lo when all are equal)."""
    values = [v for s in series for v in s.values if v is not None]
    lo = min(values) if y_min is None else y_min
    hi = max(values) if y_max is None else y_max
    return lo, (hi if hi != lo else lo + 1)


class _Plot:
    """The drawing area of a line chart: its margins, its y range (lo to hi), where an x position and a
    value land (`x`, `y`), and each x position's text (`xn`)."""
    top, bottom = 16, 40

    def __init__(self, n: int, lo: float, hi: float, invert: bool, width: int, height: int, left: float,
                 right: float):
        self.n, self.lo, self.hi, self.invert = n, lo, hi, invert
        self.left = left
        self.pw = width - left - right
        self.ph = height - self.top - self.bottom
        self.step = self.pw / max(1, n - 1)
        self.xn = [_n(self.x(i)) for i in range(n)]   # each x position's text, written once

    def x(self, i: int) -> float:
        return self.left + (i * self.step if self.n > 1 else self.pw / 2)

    def y(self, v: float) -> float:
        f = (v - self.lo) / (self.hi - self.lo)
        return self.top + (f if self.invert else 1 - f) * self.ph

    def runs(self, values: Sequence[Optional[float]]) -> list[list[tuple]]:
        """A series' points in runs: a gap (None: a stage not played) breaks the line; each point as
        (x, y, x text, y text, value)."""
        segs, cur = [], []
        x, y, xn = self.x, self.y, self.xn
        for i, v in enumerate(values):
            if v is None:
                if cur:
                    segs.append(cur)
                cur = []
            else:
                yv = y(v)
                cur.append((x(i), yv, xn[i], _n(yv), v))
        if cur:
            segs.append(cur)
        return segs


_TICKS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10 ** 9)


def _ticks(lo: float, hi: float) -> list[float]:
    """About five round values from lo to hi for the y grid, and lo itself unless a round one is close."""
    tick = next(t for t in _TICKS if (hi - lo) / t <= 6)
    first = int(lo // tick) * tick
    v = first if first >= lo else first + tick
    ticks = [] if v - lo < tick / 3 else [lo]  # the first value (1º) always has its line
    while v <= hi + 1e-9:
        ticks.append(v)
        v += tick
    return ticks


def _grid(plot: _Plot, fmt: Callable[[float], str], zero_line: bool) -> list[str]:
    """The y grid: a line and a label at each tick, and a darker line at zero when asked (and in range)."""
    left, right = plot.left, plot.left + plot.pw
    body = []
    for v in _ticks(plot.lo, plot.hi):
        y = plot.y(v)
        body.append(f'<line x1="{left}" x2="{right}" y1="{_n(y)}" y2="{_n(y)}" stroke="{LINE}"/>')
        body.append(f'<text x="{left - 6}" y="{_n(y + 4)}" text-anchor="end" fill="{MUTED}">{_t(fmt(v))}'
                    "</text>")
    if zero_line and plot.lo < 0 < plot.hi:
        body.append(f'<line x1="{left}" x2="{right}" y1="{_n(plot.y(0))}" y2="{_n(plot.y(0))}" stroke="{MUTED}"/>')
    return body


def _line(body: list[str], plot: _Plot, k: int, s: Series, fmt: Optional[Callable[[float], str]]) -> Optional[tuple]:
    """Draw series number k into `body`: its runs of points as lines, a dot at each point, and each point's
    value above it when `fmt` is given. Returns its last point (y, label, colour, x), None when it has none."""
    color, dash = PALETTE[k % len(PALETTE)], DASHES[(k // len(PALETTE)) % len(DASHES)]
    segs = plot.runs(s.values)
    if not segs:
        return None
    stroke = (f'" fill="none" stroke="{color}" stroke-width="2.5"'
              + (f' stroke-dasharray="{dash}"' if dash else "") + ' stroke-linejoin="round"/>')
    for seg in segs:
        if len(seg) > 1:
            body.append('<polyline points="' + " ".join([f"{p[2]},{p[3]}" for p in seg]) + stroke)
    pts = [p for seg in segs for p in seg]
    for p in pts:
        body.append(f'<circle cx="{p[2]}" cy="{p[3]}" r="3.5" fill="{color}"/>')
    if fmt is not None:
        _point_labels(body, plot, pts, color, fmt)
    return pts[-1][1], s.label, color, pts[-1][0]


def _point_labels(body: list[str], plot: _Plot, pts: list[tuple], color: str, fmt: Callable[[float], str]) -> None:
    """Each point's value written above it (below it when too close to the top)."""
    for x, y, xt, _yt, v in pts:
        ty = y - 8 if y - 8 > plot.top + 4 else y + 17
        body.append(f'<text x="{xt}" y="{_n(ty)}" text-anchor="middle" fill="{color}" '
                    f'font-weight="600">{_t(fmt(v))}</text>')


def _end_labels(plot: _Plot, ends: list[tuple]) -> list[str]:
    """Each series' label right of the plot, spread apart, with a thin line from its last point."""
    body = []
    lx = plot.left + plot.pw + 10
    ys = _spread([e[0] for e in ends], 14, plot.top, plot.top + plot.ph)
    for (y0, label, color, x0), y in zip(ends, ys):
        body.append(f'<line x1="{_n(x0 + 4)}" x2="{_n(lx - 2)}" y1="{_n(y0)}" y2="{_n(y)}" stroke="{color}" '
                    f'stroke-width="1"/>')
        body.append(f'<text x="{_n(lx)}" y="{_n(y + 4)}" fill="{color}">{_t(label)}</text>')
    return body


def _fmt(v: float) -> str:
    """A tick or point value in the build's locale: 12, −20, 2,5 / 2.5."""
    if float(v).is_integer():
        return i18n.number(int(v)).replace("-", "−")
    return i18n.decimal(Decimal(f"{v:.1f}")).replace("-", "−")


def _place(v: float) -> str:
    return i18n.ordinal(int(v))


def _short(name: str, n: int = 26) -> str:
    return name if len(name) <= n else name[: n - 1].rstrip() + "…"


def _stage_label(stage, many_seasons: bool) -> str:
    label = _short(stage.name, 14)
    return f"{label} {stage.season}" if many_seasons else label


class Charts:
    """Charts of one build; templates call season/club/pair, render_site writes `files`."""

    def __init__(self, results, site):
        self.r = results
        self.site = site
        self.files: dict[str, str] = {}
        self._clubs: Optional[dict] = None
        self.touched: Optional[list] = None   # when a list: each chart's path is appended as it is made

    def _keep(self, path: str, svg: str, alt: str, width: int, height: int, table: dict) -> dict:
        self._file(path, svg)
        return {"url": self.site.root + path, "alt": alt, "width": width, "height": height, "table": table,
                "narrow": None}   # (season: its drawing for a phone)

    def _file(self, path: str, svg: str) -> None:
        if self.touched is not None:
            self.touched.append(path)
        self.files[path] = svg

    # ------------------------------------------------------------ season: club ranking evolution

    def season(self, sr) -> Optional[dict]:
        finals = [res for res in sr.stages if res.stage.is_final]
        if len(finals) < 2:
            return None
        pos, leaders = self._after_each_stage(sr, finals)
        n = max((p for ps in pos.values() for p in ps if p is not None), default=1)
        series = [Series(f"{i18n.ordinal(e.position)} {_short(self.site.club_name(e.key))}", pos[e.key])
                  for e in sr.clubs]
        xs = [_stage_label(res.stage, False) for res in finals]
        title = _("Ranking de clubes de %(year)s: posição após cada etapa encerrada") % {"year": sr.season.year}
        height = max(260, 40 + 26 * n + 16)
        svg, width = draw_line_chart(xs, series, title, invert=True, y_min=1, y_max=n, y_format=_place,
                                     width=720, height=height, label_width=120)
        alt = _("Gráfico: posição de cada clube no ranking anual após cada etapa encerrada. "
                "Líder após a %(leaders)s.") % {"leaders": "; ".join(leaders)}
        chart = self._keep(f"{sr.season.year}/ranking-clubes.svg", svg, alt, width, height,
                           self._season_table(sr, finals, pos))
        chart["narrow"] = self._season_narrow(sr, finals, pos, title, height)
        return chart

    def _season_narrow(self, sr, finals: list, pos: dict, title: str, height: int) -> dict:
        """The season chart for a phone (templates/chart.html: the <picture>'s source under 40rem), about
        320 px wide where the other is 720: the stages named as the ranking table's columns (1ª, 2ª…, its
        legend and the chart's table give the names), the clubs' names cut at 18 characters."""
        number = {id(res): k for k, res in enumerate(sr.stages, 1)}
        xs = [pgettext("stage column", "%(n)sª") % {"n": number[id(res)]} for res in finals]
        series = [Series(f"{i18n.ordinal(e.position)} {_short(self.site.club_name(e.key), 18)}", pos[e.key])
                  for e in sr.clubs]
        n = max((p for ps in pos.values() for p in ps if p is not None), default=1)
        svg, width = draw_line_chart(xs, series, title, invert=True, y_min=1, y_max=n, y_format=_place,
                                     width=PHONE, height=height, label_width=1)
        path = f"{sr.season.year}/ranking-clubes-celular.svg"
        self._file(path, svg)
        return {"url": self.site.root + path, "width": width, "height": height}

    def _season_table(self, sr, finals: list, pos: dict) -> dict:
        """The season chart's numbers: each club's position after each final stage ("–": not yet placed)."""
        return chart_table(_("Clube"), [res.stage.name for res in finals],
                           [(f"{i18n.ordinal(e.position)} {self.site.club_name(e.key)}",
                             [_place(p) if p is not None else "–" for p in pos[e.key]]) for e in sr.clubs])

    def _after_each_stage(self, sr, finals: list) -> tuple[dict, list[str]]:
        """Each club's position in the annual ranking after each final stage ({club: [position or None]}),
        and who led after each ("stage: clubs")."""
        ids = [res.stage.id for res in finals]
        pos: dict[str, list[Optional[float]]] = {e.key: [] for e in sr.clubs}
        leaders = []
        for k in range(1, len(finals) + 1):
            ranking = annual_ranking(club_entries(finals[:k]), ids[:k])
            at = {e.key: e.position for e in ranking}
            for c, ps in pos.items():
                ps.append(at.get(c))
            lead = [self.site.club_name(e.key) for e in ranking if e.position == 1]
            leaders.append(_("%(stage)s: %(clubs)s") % {"stage": finals[k - 1].stage.name, "clubs": i18n.join(lead)})
        return pos, leaders

    # ------------------------------------------------------------ club and pair: position history

    def _history(self, points: list, title: str, path: str, what: str) -> Optional[dict]:
        """points: (stage, position, field size) of final stages, in date order."""
        if len(points) < 2:
            return None
        many = len({st.season for st, _p, _z in points}) > 1
        xs = [_stage_label(st, many) for st, _p, _z in points]
        n = max(size for _s, _p, size in points)
        svg, width = draw_line_chart(xs, [Series(what, [float(p) for _s, p, _z in points])], title, invert=True,
                                     y_min=1, y_max=max(n, 2), y_format=_place, width=max(PHONE, 70 * len(points) + 40),
                                     height=240, point_labels=True)
        alt = _("Gráfico: %(title)s. %(points)s.") % {
            "title": title.lower()[0] + title[1:],
            "points": "; ".join(_("%(stage)s %(season)s: %(place)s de %(size)s") % {
                "stage": st.name, "season": st.season, "place": i18n.ordinal(p), "size": size}
                for st, p, size in points)}
        table = chart_table(_("Etapa"), [_("Posição")],
                            [(f"{st.name} {st.season}" if many else st.name,
                              [_("%(place)s de %(size)s") % {"place": i18n.ordinal(p), "size": size}])
                             for st, p, size in points])
        return self._keep(path, svg, alt, width, 240, table)

    def _club_points(self) -> dict:
        """club → (stage, its best team's position, field size) of each final stage it played, in order;
        made once for all the club pages."""
        if self._clubs is None:
            self._clubs = {}
            for sr in self.r.seasons:
                for res in sr.stages:
                    if not res.stage.is_final:
                        continue
                    best: dict = {}
                    for p in res.classification:
                        if not p.disqualified:
                            club = res.stage.teams[p.key].club
                            if club not in best or p.position < best[club]:
                                best[club] = p.position
                    for club, position in best.items():
                        self._clubs.setdefault(club, []).append((res.stage, position, len(res.classification)))
        return self._clubs

    def club(self, cid: str) -> Optional[dict]:
        pts = list(self._club_points().get(cid, ()))
        if len(pts) < 2:
            return None
        return self._history(pts, _("Posição da melhor equipe de %(club)s em cada etapa") % {
                                 "club": self.site.club_name(cid)},
                             f"clubes/{cid}/posicoes.svg", self.site.club_name(cid))

    def pair(self, pair) -> Optional[dict]:
        pts = [(res.stage, p.position, len(res.pairs)) for _sr, res, p in self.site.pair_hist.get(pair, ())
               if res.stage.is_final and not p.disqualified]
        pts.sort(key=lambda t: (t[0].date, t[0].id))
        if len(pts) < 2:
            return None  # (before the pair's name is looked up)
        return self._history(pts, _("Posição da dupla %(pair)s em cada etapa") % {"pair": self.site.pair_name(pair)},
                             f"duplas/{pair_slug(pair)}/posicoes.svg", self.site.pair_name(pair))

    # ------------------------------------------------------------ knockout bracket (HTML, not SVG)

    @staticmethod
    def bracket(rounds):
        return bracket(rounds)

    # ------------------------------------------------------------ generic: one value per round

    def rounds(self, path: str, title: str, labels: Sequence[str], values: Sequence[Optional[Decimal | int]],
               alt: str, suffix: str = "") -> Optional[dict]:
        """A single line over rounds (e.g. a Quatrilho player's chips after each round); `path` is relative
        to the site root and must be unique."""
        if sum(v is not None for v in values) < 2:
            return None
        svg, width = draw_line_chart(list(labels), [Series(title, [None if v is None else float(v) for v in values])],
                                     title, y_suffix=suffix, width=max(PHONE, 56 * len(labels) + 60), height=240,
                                     zero_line=True, point_labels=True)
        table = chart_table(_("Rodada"), [_("Pontos somados")],
                            [(label, ["—" if v is None else _fmt(float(v)) + suffix])
                             for label, v in zip(labels, values)])
        return self._keep(path, svg, alt, width, 240, table)


def chart_table(corner: str, heads: Sequence[str], rows: Sequence[tuple[str, Sequence[str]]]) -> dict:
    """The chart's numbers as a table (templates/chart.html, "Ver como tabela"): `corner` heads the column
    of row names, `heads` the other columns; rows: (name, one text per column)."""
    return {"corner": corner, "heads": list(heads), "rows": [{"head": h, "cells": list(c)} for h, c in rows]}


def bracket(rounds: Sequence[dict]) -> Optional[dict]:
    """The knockout rounds of a stage page (stage_view's `rounds`) arranged as a bracket: the eliminating
    rounds and the final, each round's ties ordered so that ties 2k and 2k+1 feed tie k of the next round.
    Placement rounds (3º lugar, 5º ao 8º, …) are returned apart in `others`. None when the rounds do not
    form a clean bracket (byes, a round that is not half the previous one): the page then lists them."""
    main = _eliminating(rounds)
    if len(main) < 2 or len(main[-1]["matches"]) != 1:
        return None
    ordered = _feeding_order(main)
    if ordered is None:
        return None
    columns = [{"name": r["name"], "duos": [ms[i:i + 2] for i in range(0, len(ms), 2)]}
               for r, ms in zip(main, ordered)]
    return {"columns": columns, "others": [r for r in rounds if all(r is not m for m in main)]}


def _eliminating(rounds: Sequence[dict]) -> list[dict]:
    """The rounds of the bracket: the eliminating ones (not for places), then the final."""
    main = [r for r in rounds if not r["for_place"] and not r["places"]]
    final = next((r for r in rounds if r["for_place"] == 1), None)
    if final is not None:
        main.append(final)
    return main


def _feeding_order(main: list[dict]) -> Optional[list[list]]:
    """Each round's ties, from the last round back, ordered so that ties 2k and 2k+1 feed tie k of the
    next round; None when some round's ties do not feed the next one's two by two."""
    ordered = [list(main[-1]["matches"])]
    for r in reversed(main[:-1]):
        order = _feeders(list(r["matches"]), ordered[0])
        if order is None:
            return None
        ordered.insert(0, order)
    return ordered


def _feeders(prev: list[dict], nxt: list[dict]) -> Optional[list[dict]]:
    """The ties of a round in the order their winners play the ties `nxt` of the next round (home, away);
    None unless each tie of `prev` feeds exactly one place."""
    if len(prev) != 2 * len(nxt):
        return None
    won = {m["winner"]: m for m in prev}
    order = [won.get(t) for m in nxt for t in (m["home"], m["away"])]
    if None in order or len({id(m) for m in order}) != len(prev):
        return None
    return order
